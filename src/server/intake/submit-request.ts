import type { FieldErrors } from '../../core/field-errors';
import type { Brand, Locale } from '../../core/types';
import { composeDeliveries } from '../delivery/compose-deliveries';
import type { SubmitOutcome } from '../storage/records';
import type { RequestValidator } from '../validation/request-validator';
import { idempotencyKey } from './idempotency-key';
import type { RequestStore } from './request-store';

export interface Submit {
  brand: Brand;
  /** The request as sent (the JSON API's body, or a form posted without scripts, shaped as the page shapes it). */
  body: unknown;
  /** The page's language when the request does not carry one. */
  locale: Locale;
  /** As sent; judged here (idempotency-key.ts). */
  idempotencyKey?: unknown;
  /** Runs once the request is found valid, before it is stored; may refuse it by throwing (a route's own limit). */
  admit?: () => Promise<void>;
}

export type SubmitResult =
  | SubmitOutcome
  | { kind: 'invalid'; error: string; fields: FieldErrors }
  /** The Idempotency-Key sent is not one (the JSON API refuses it; a form posted without scripts goes on without). */
  | { kind: 'bad-key' };

/**
 * Taking in a repair request, whichever way it came (routes/forms.ts,
 * routes/no-script-form.ts): judged by the brand's variant schema as the
 * page judges it, stored with its photos claimed and its deliveries (the
 * customer's and dealer's mails, the desk's mail, the webhook) queued, once
 * per Idempotency-Key. `accepted` hears of each new request stored.
 */
export class Intake {
  constructor(
    private readonly store: RequestStore,
    private readonly validator: RequestValidator,
    private readonly accepted: (brand: string) => void,
  ) {}

  async submit({ brand, body, locale: pageLocale, idempotencyKey: rawKey, admit }: Submit): Promise<SubmitResult> {
    const key = idempotencyKey(rawKey);
    if (!key.ok) return { kind: 'bad-key' };
    const verdict = this.validator.check(brand, body, pageLocale);
    if (!verdict.ok) return { kind: 'invalid', error: verdict.error, fields: verdict.fields };
    await admit?.();
    const { request } = verdict;
    // The extended form carries its language; the simple one only has the page's.
    const locale = request.language ?? pageLocale;
    const outcome = await this.store.submit({
      brand: brand.id,
      variant: brand.variant,
      locale,
      payload: request,
      idempotencyKey: key.key,
      deliveries: (reference, receivedAt) => composeDeliveries(request, brand, locale, reference, receivedAt),
    });
    if (outcome.kind === 'stored' && !outcome.replay) this.accepted(brand.id);
    return outcome;
  }
}
