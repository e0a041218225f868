import { resolveLocale } from '../../../core/locale';
import type { Brand, RepairRequest } from '../../../core/types';
import type { DueDelivery } from '../../storage/records';
import { deskAttachments } from './desk-mail';
import { mailDate } from './for-people';
import type { MailTransport } from './transport';

export interface MailSenderOptions {
  brands: ReadonlyMap<string, Brand>;
  /** MAIL_FROM: the address; the display name is the brand's. */
  fromAddress: string;
  /** A stored photo's bytes (StoredPhotos.read): the desk's mail carries both. */
  readPhoto: (name: string) => Promise<Buffer | undefined>;
  /** PORTAL_TIME_ZONE: the Date header is on its clock, with its offset. */
  timeZone: string;
}

/**
 * Turns a due mail into what the transport sends: from "<Brand> Service",
 * a Message-ID on the sender's domain (the same on every attempt), Reply-To
 * a person who reads it (the customer for the desk's mail, the desk for the
 * customer's and the dealer's), for the desk both stored photos, and the
 * language it is written in (Content-Language: the desk's for the desk's
 * mail, the request's for the customer's and the dealer's).
 */
export function mailSender(transport: MailTransport, { brands, fromAddress, readPhoto, timeZone }: MailSenderOptions) {
  const domain = fromAddress.split('@')[1];
  return async (delivery: DueDelivery): Promise<void> => {
    const brand = brands.get(delivery.brand);
    const request = JSON.parse(delivery.payload) as RepairRequest;
    const desk = delivery.kind === 'desk';
    const deskLanguage = brand?.serviceDesk.language ?? 'nl';
    await transport.deliver({
      id: delivery.id,
      kind: delivery.kind,
      from: { name: `${brand?.name ?? delivery.brand} Service`, address: fromAddress },
      to: delivery.recipient,
      replyTo: desk ? request.client_email : (brand?.serviceDesk.emails[0] ?? fromAddress),
      subject: delivery.subject,
      text: delivery.body,
      messageId: `<${delivery.messageId}@${domain}>`,
      date: mailDate(Date.now(), timeZone),
      attachments: desk ? await deskAttachments(request, delivery.reference, deskLanguage, readPhoto) : undefined,
      headers: {
        'Content-Language': desk ? deskLanguage : resolveLocale(delivery.locale),
        // Lets the desk's mail rules or ticket system file the mail under its request.
        'X-Repair-Reference': delivery.reference,
      },
    });
  };
}
