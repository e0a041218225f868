import type { Brand, Locale } from '../../../core/types';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import { fill, tidyText } from './fill';
import messages from './messages.json';

/**
 * The confirmation the success panel promises, in the page's language, and
 * the dealer's notice when a dealer address was given. Neither address is
 * verified, so both carry only the portal's own words, the reference and
 * the portal's brand name; the request itself goes to the service desk.
 */
export function composeCustomerMails(
  request: { client_email: string; notification?: string },
  brand: Pick<Brand, 'name'>,
  locale: Locale,
  reference: string,
): QueuedDelivery[] {
  const texts = messages[locale];
  const values = { brand: brand.name, reference };
  const mail = (kind: 'confirmation' | 'dealer', to: string): QueuedDelivery =>
    queued(kind, to.toLowerCase(), fill(texts[kind].subject, values), tidyText(fill(texts[kind].text, values)));
  const mails = [mail('confirmation', request.client_email)];
  if (request.notification) mails.push(mail('dealer', request.notification));
  return mails;
}
