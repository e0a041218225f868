import { roleValue } from '../../../core/form-model';
import { FALLBACK_LOCALE } from '../../../core/texts';
import type { Brand, RepairRequest } from '../../../core/types';
import type { FormRevisions } from '../../revisions/form-revisions';
import type { DueDelivery } from '../../storage/records';
import { deskAttachments, unknownFormAttachments } from './desk-mail';
import { mailDate } from '../../../core/for-people';
import type { MailTransport } from './transport';

export interface MailSenderOptions {
  brands: ReadonlyMap<string, Brand>;
  /** Each request's form as it was sent: which fields are the customer's address and the photos, and their names. */
  forms: Pick<FormRevisions, 'of'>;
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
 * customer's and the dealer's), for the desk the request's photos, and the
 * language it was written in when queued (Content-Language; the photos are
 * named in it), whatever the brand's desk language is by the time it is sent.
 */
export function mailSender(transport: MailTransport, { brands, forms, fromAddress, readPhoto, timeZone }: MailSenderOptions) {
  const domain = fromAddress.split('@')[1];
  return async (delivery: DueDelivery): Promise<void> => {
    const brand = brands.get(delivery.brand);
    const request = JSON.parse(delivery.payload) as RepairRequest;
    const desk = delivery.kind === 'desk';
    // The language the text was written in; rows queued before they kept it: the desk's of today, or the request's.
    const language = delivery.language ?? (desk ? (brand?.serviceDesk.language ?? FALLBACK_LOCALE) : delivery.locale);
    // The desk's mail needs its form to find the customer's address and the photos: the one the request was sent with.
    // A request whose form is unknown still reaches the desk as written: the photos it names, Reply-To the desk.
    const form = desk ? await forms.of({ variant: delivery.variant, form_revision: delivery.formRevision, payload: delivery.payload }) : undefined;
    await transport.deliver({
      id: delivery.id,
      kind: delivery.kind,
      from: { name: `${brand?.name ?? delivery.brand} Service`, address: fromAddress },
      to: delivery.recipient,
      replyTo: (form ? roleValue(form.model, request, 'customer-email') : undefined) ?? brand?.serviceDesk.emails[0] ?? fromAddress,
      subject: delivery.subject,
      text: delivery.body,
      messageId: `<${delivery.messageId}@${domain}>`,
      date: mailDate(Date.now(), timeZone),
      attachments: !desk ? undefined : form ? await deskAttachments(form.model, request, delivery.reference, { languages: form.languages, language }, readPhoto) : await unknownFormAttachments(request, delivery.reference, readPhoto),
      headers: {
        'Content-Language': language,
        // Lets the desk's mail rules or ticket system file the mail under its request.
        'X-Repair-Reference': delivery.reference,
      },
    });
  };
}
