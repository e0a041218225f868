import type { Brand, Locale, RepairRequest } from '../../core/types';
import type { QueuedDelivery } from '../storage/records';
import { composeCustomerMails } from './mail/compose-mails';
import { composeDeskMail } from './mail/desk-mail';
import { composeWebhook } from './webhook/webhook-event';

/** Everything a stored request sends: the customer's and dealer's notices, the desk's mail, the webhook. Times in the mails are on `timeZone`'s clock. */
export function composeDeliveries(
  request: RepairRequest,
  brand: Brand,
  locale: Locale,
  reference: string,
  receivedAt: number,
  timeZone: string,
): QueuedDelivery[] {
  const webhook = composeWebhook(request, brand, locale, reference, receivedAt);
  return [
    ...composeCustomerMails(request, brand, locale, reference),
    composeDeskMail(request, brand, reference, receivedAt, timeZone),
    ...(webhook ? [webhook] : []),
  ];
}
