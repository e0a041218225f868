import type { Brand, RepairRequest } from '../../../core/types';
import type { DueDelivery } from '../../storage/records';
import { deskAttachments } from './desk-mail';
import type { MailTransport } from './transport';

export interface MailSenderOptions {
  brands: ReadonlyMap<string, Brand>;
  /** MAIL_FROM: the address; the display name is the brand's. */
  fromAddress: string;
  /** A stored photo's bytes (StoredPhotos.read): the desk's mail carries both. */
  readPhoto: (name: string) => Promise<Buffer | undefined>;
}

/**
 * Turns a due mail into what the transport sends: from "<Brand> Service",
 * a Message-ID on the sender's domain (the same on every attempt), Reply-To
 * a person who reads it (the customer for the desk's mail, the desk for the
 * customer's and the dealer's), and for the desk both stored photos.
 */
export function mailSender(transport: MailTransport, { brands, fromAddress, readPhoto }: MailSenderOptions) {
  const domain = fromAddress.split('@')[1];
  return async (delivery: DueDelivery): Promise<void> => {
    const brand = brands.get(delivery.brand);
    const request = JSON.parse(delivery.payload) as RepairRequest;
    const desk = delivery.kind === 'desk';
    await transport.deliver({
      id: delivery.id,
      kind: delivery.kind,
      from: { name: `${brand?.name ?? delivery.brand} Service`, address: fromAddress },
      to: delivery.recipient,
      replyTo: desk ? request.client_email : (brand?.serviceDesk.emails[0] ?? fromAddress),
      subject: delivery.subject,
      text: delivery.body,
      messageId: `<${delivery.messageId}@${domain}>`,
      attachments: desk ? await deskAttachments(request, delivery.reference, brand?.serviceDesk.language ?? 'nl', readPhoto) : undefined,
      // Lets the desk's mail rules or ticket system file the mail under its request.
      headers: { 'X-Repair-Reference': delivery.reference },
    });
  };
}
