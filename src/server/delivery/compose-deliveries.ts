import type { FormModel } from '../../core/form-model';
import type { Languages } from '../../core/texts';
import type { Brand, Locale, RepairRequest } from '../../core/types';
import type { QueuedDelivery } from '../storage/records';
import { composeCustomerMails } from './mail/compose-mails';
import { composeDeskMail } from './mail/desk-mail';
import { composeWebhook } from './webhook/webhook-event';

/** What composing a request's deliveries reads besides the request. */
export interface Composition {
  model: FormModel;
  brand: Brand;
  languages: Languages;
  /** The request's language. */
  locale: Locale;
  /** PORTAL_TIME_ZONE: the clock the mails state times on. */
  timeZone: string;
}

/** Everything a stored request sends: the customer's and dealer's notices, the desk's mail, the webhook. */
export function composeDeliveries(request: RepairRequest, reference: string, receivedAt: number, c: Composition): QueuedDelivery[] {
  const { model, brand, languages, locale, timeZone } = c;
  const webhook = composeWebhook(model, request, brand, locale, reference, receivedAt);
  return [
    ...composeCustomerMails(model, request, brand, languages, locale, reference),
    composeDeskMail({ model, request, brand, locale, reference, receivedAt, timeZone, languages }),
    ...(webhook ? [webhook] : []),
  ];
}
