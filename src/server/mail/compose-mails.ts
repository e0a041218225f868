import type { Brand, Locale, RepairRequest } from '../../core/types';
import messages from './messages.json';

export type MailKind = 'confirmation' | 'dealer';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
}

function fill(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

/**
 * The confirmation the success panel promises, in the page's language, and
 * the dealer's notification when a dealer address was given. Plain text
 * only, so customer input cannot become markup.
 */
export function composeMails(
  request: RepairRequest,
  brand: Pick<Brand, 'name'>,
  locale: Locale,
  reference: string,
): OutgoingMail[] {
  const texts = messages[locale];
  // The brand field may be a sub-brand chosen in the form (Hanant); the portal's brand names the service.
  const values = { ...request, brand: request.brand ?? brand.name, reference };
  const subjectValues = { brand: brand.name, reference };
  const house = request.house_number_suffix ? { house_number_suffix: ` ${request.house_number_suffix}` } : {};
  const mails: OutgoingMail[] = [
    {
      kind: 'confirmation',
      to: request.client_email,
      subject: fill(texts.confirmation.subject, subjectValues),
      text: fill(texts.confirmation.text, { ...values, ...house }),
    },
  ];
  if (request.notification) {
    mails.push({
      kind: 'dealer',
      to: request.notification,
      subject: fill(texts.dealer.subject, subjectValues),
      text: fill(texts.dealer.text, { ...values, ...house }),
    });
  }
  return mails;
}
