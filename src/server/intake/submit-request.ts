import type { FieldErrors } from '../../core/field-errors';
import type { Brand, Locale } from '../../core/types';
import { composeDeliveries } from '../delivery/compose-deliveries';
import { KINDS } from '../delivery/kinds';
import { customerMailRecipients } from '../delivery/mail/compose-mails';
import type { Storage } from '../storage/port';
import type { SubmitOutcome } from '../storage/records';
import { payloadHash } from '../storage/store-rules';
import { formOf, type RequestValidator } from '../validation/request-validator';
import type { PortalData } from '../portal-data';
import type { FormRevisions } from '../revisions/form-revisions';
import { idempotencyKey } from './idempotency-key';
import type { MailCap, MailTurn } from './mail-cap';
import type { RequestStore } from './request-store';

/** What the intake tells the rest (metrics, the log). */
export interface IntakeEvents {
  /** A new request was stored. */
  accepted(brand: string): void;
  /** A customer's mail was put off to a later hour: the brand's hourly mail cap, or the client's share of it, was reached. */
  held(brand: string): void;
  /** A notice to another address (the dealer's) was not sent: its hourly budget, or the client's share, was reached. */
  withheld(brand: string): void;
}

export interface Submit {
  brand: Brand;
  /** The request as sent (the JSON API's body, or a form posted without scripts, shaped as the page shapes it). */
  body: unknown;
  /** The page's language when the request does not carry one. */
  locale: Locale;
  /**
   * The route judged it already as a whole form (a form posted without scripts: form/judgeForm over the
   * form's data, of which `body` is shapeRequest's), so it is not judged again here.
   */
  judged?: boolean;
  /** As sent; judged here (idempotency-key.ts). */
  idempotencyKey?: unknown;
  /** Who sent it (clientKey of the address): its share of the brand's mail cap. */
  client: string;
  /** Runs once the request is found valid, before it is stored; may refuse it by throwing (a route's own limit). */
  admit?: () => Promise<void>;
}

export type SubmitResult =
  | SubmitOutcome
  | { kind: 'invalid'; error: string; fields: FieldErrors }
  /** The Idempotency-Key sent is not one (the JSON API refuses it; a form posted without scripts goes on without). */
  | { kind: 'bad-key' };

/** What the intake works with. */
export interface IntakeParts {
  store: RequestStore;
  validator: RequestValidator;
  mailCap: MailCap;
  events: IntakeEvents;
  /** The forms and the words of the mails. */
  data: Pick<PortalData, 'forms' | 'languages'>;
  /** The revision of each form a request is stored with. */
  revisions: Pick<FormRevisions, 'currentId'>;
  /** The request stored under a key: an exact replay gets its first answer even where today's form would refuse it. */
  earlier: Pick<Storage, 'requestByKey'>;
  /** PORTAL_TIME_ZONE: the clock the mails state times on. */
  timeZone: string;
}

/**
 * Taking in a repair request, whichever way it came (routes/forms.ts,
 * routes/no-script-form.ts): judged by the brand's form's schema as the
 * page judges it, stored with its photos claimed and its deliveries (the
 * customer's and dealer's mails, the desk's mail, the webhook) queued, once
 * per Idempotency-Key; the customer's and dealer's mails within the brand's
 * mail cap (mail-cap.ts: the customer's may wait for a later hour, the
 * dealer's may not be sent) and, in storage, the per-mailbox limit. The
 * request keeps the revision of the form it was checked against.
 */
export class Intake {
  constructor(private readonly parts: IntakeParts) {}

  async submit({ brand, body, locale: pageLocale, judged = false, idempotencyKey: rawKey, client, admit }: Submit): Promise<SubmitResult> {
    const key = idempotencyKey(rawKey);
    if (!key.ok) return { kind: 'bad-key' };
    const verdict = judged ? this.parts.validator.judged(brand, body, pageLocale) : this.parts.validator.check(brand, body, pageLocale);
    if (!verdict.ok) {
      // The same request sent again after its form changed (a retry, a reload) is answered as it was the first time.
      const replay = key.key === undefined ? undefined : await this.replay(brand.id, body, key.key);
      return replay ?? { kind: 'invalid', error: verdict.error, fields: verdict.fields };
    }
    await admit?.();
    // A form with a language field carries its language; others only have the page's (the validator says which).
    const { request, locale } = verdict;
    const model = formOf(this.parts.data, brand);
    const kinds = customerMailRecipients(model, request).map((r) => r.kind);
    const capped = await this.parts.mailCap.turns(brand.id, client, kinds.map((kind) => (KINDS[kind].unverified === 'customer' ? 'customer' : 'notice')));
    const turns = new Map<string, MailTurn>(kinds.map((kind, i) => [kind, capped[i]]));
    const composition = { model, brand, languages: this.parts.data.languages, locale, timeZone: this.parts.timeZone };
    const outcome = await this.parts.store.submit({
      brand: brand.id,
      model,
      formRevision: this.parts.revisions.currentId(model.name),
      locale,
      payload: request,
      idempotencyKey: key.key,
      deliveries: (reference, receivedAt) =>
        composeDeliveries(request, reference, receivedAt, composition).flatMap((d) => {
          const turn = turns.get(d.kind);
          if (turn === undefined || turn.go === 'now') return [d];
          return turn.go === 'later' ? [{ ...d, notBefore: turn.at }] : [];
        }),
    });
    if (outcome.kind === 'stored' && !outcome.replay) {
      this.parts.events.accepted(brand.id);
      for (const turn of turns.values()) {
        if (turn.go === 'later') this.parts.events.held(brand.id);
        if (turn.go === 'never') this.parts.events.withheld(brand.id);
      }
    }
    return outcome;
  }

  /** The request stored under `key` if `body` is exactly what it stored (the hash a replay is judged by in storage too). */
  private async replay(brand: string, body: unknown, key: string): Promise<SubmitOutcome | undefined> {
    const earlier = await this.parts.earlier.requestByKey(key, brand);
    const same = earlier !== undefined && earlier.payload_hash === payloadHash({ brand, payload: JSON.stringify(body) });
    return same ? { kind: 'stored', reference: earlier.reference, replay: true } : undefined;
  }
}
