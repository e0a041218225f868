import type { Brand, Locale, RepairRequest } from '../../core/types';
import { deliveriesFor } from '../outbox/deliveries-for';
import type { RequestStore, SubmitOutcome } from './request-store';

/** A valid request stored with its deliveries (mails, desk, webhook), whichever way it was sent (JSON API or a post without scripts). */
export function storeRequest(
  store: RequestStore,
  brand: Brand,
  request: RepairRequest,
  locale: Locale,
  idempotencyKey: string | undefined,
): Promise<SubmitOutcome> {
  return store.submit({
    brand: brand.id,
    variant: brand.variant,
    locale,
    payload: request,
    idempotencyKey,
    deliveries: (reference, receivedAt) => deliveriesFor(request, brand, locale, reference, receivedAt),
  });
}
