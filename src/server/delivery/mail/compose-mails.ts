import { roleValue, type FormModel } from '../../../core/form-model';
import { text, type Languages } from '../../../core/texts';
import type { Brand, Locale, RepairRequest } from '../../../core/types';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import { tidyText } from './tidy-text';

/** Who a request mails at addresses the portal has not verified: the customer (role customer-email), and the dealer (role dealer-email) if given. */
export function customerMailRecipients(model: Pick<FormModel, 'roles'>, request: RepairRequest): { kind: 'confirmation' | 'dealer'; to: string }[] {
  const customer = roleValue(model, request, 'customer-email');
  const dealer = roleValue(model, request, 'dealer-email');
  return [
    ...(customer ? [{ kind: 'confirmation' as const, to: customer }] : []),
    ...(dealer ? [{ kind: 'dealer' as const, to: dealer }] : []),
  ];
}

/**
 * The confirmation the success panel promises, in the page's language, and
 * the dealer's notice when a dealer address was given. Neither address is
 * verified, so both carry only the portal's own words, the reference and
 * the portal's brand name; the request itself goes to the service desk.
 */
export function composeCustomerMails(
  model: Pick<FormModel, 'roles'>,
  request: RepairRequest,
  brand: Pick<Brand, 'name'>,
  languages: Languages,
  locale: Locale,
  reference: string,
): QueuedDelivery[] {
  const values = { brand: brand.name, reference };
  return customerMailRecipients(model, request).map(({ kind, to }) =>
    queued(kind, reference, to.toLowerCase(), text(languages, locale, `mail.${kind}.subject`, values), tidyText(text(languages, locale, `mail.${kind}.text`, values)), locale),
  );
}
