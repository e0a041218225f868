import type { Brand, Locale } from '../../../core/types';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import { fill, tidyText } from './fill';
import messages from './messages.json';

type Addressed = { client_email: string; notification?: string };

/** Who a request mails at addresses the portal has not verified: the customer, and the dealer if given. */
export function customerMailRecipients(request: Addressed): { kind: 'confirmation' | 'dealer'; to: string }[] {
  const recipients: { kind: 'confirmation' | 'dealer'; to: string }[] = [{ kind: 'confirmation', to: request.client_email }];
  if (request.notification) recipients.push({ kind: 'dealer' as const, to: request.notification });
  return recipients;
}

/**
 * The confirmation the success panel promises, in the page's language, and
 * the dealer's notice when a dealer address was given. Neither address is
 * verified, so both carry only the portal's own words, the reference and
 * the portal's brand name; the request itself goes to the service desk.
 */
export function composeCustomerMails(
  request: Addressed,
  brand: Pick<Brand, 'name'>,
  locale: Locale,
  reference: string,
): QueuedDelivery[] {
  const texts = messages[locale];
  const values = { brand: brand.name, reference };
  const mail = (kind: 'confirmation' | 'dealer', to: string): QueuedDelivery =>
    queued(kind, to.toLowerCase(), fill(texts[kind].subject, values), tidyText(fill(texts[kind].text, values)));
  return customerMailRecipients(request).map(({ kind, to }) => mail(kind, to));
}
