import type { FormRevisions } from '../revisions/form-revisions';
import type { Storage } from '../storage/port';
import type { OutboxRow } from '../storage/records';
import { eraseMails, eraseRequests, removeMailFiles } from './personal-data';
import { scrubAddress } from './scrub-address';
import { findSubject } from './subject';

type ErasureStorage = Pick<
  Storage,
  'requestsAfter' | 'mailsByLimitKey' | 'deliveriesOf' | 'eraseRequests' | 'eraseMails' | 'expiredRequests' | 'rewriteRequest' | 'rewriteMail' | 'reclaim'
>;

/** What an erasure removed and changed, per kind of record: counts only, so the report names no one. */
export interface ErasureReport {
  /** The person's own requests, their photos, and their deliveries (mail and webhook rows). */
  requests: number;
  photos: number;
  deliveries: number;
  /** Mails to the person about other people's requests (a dealer's notice). */
  mailsToThem: number;
  /** Other people's requests whose dealer address was theirs: the address is taken out, the request kept. */
  requestsNamingThem: number;
  /** Deliveries of those requests (the desk's mail, the webhook) whose text quoted the address: rewritten without it. */
  deliveriesQuotingThem: number;
  /** .eml files removed (mails written to each instance's DATA_DIR/outbox when no SMTP server is set). */
  mailFiles: number;
}

/**
 * Erases a person (a GDPR erasure request), found by the mailbox their address
 * reaches: their requests with photos, deliveries and mail files; their
 * address wherever another request names them as its dealer (the request,
 * and what was sent of it); mails to them. Then the database leaves no copy
 * of it in its files (storage.reclaim).
 */
export async function eraseSubject(
  { storage, mailFolders, forms }: { storage: ErasureStorage; mailFolders: readonly string[]; forms: Pick<FormRevisions, 'of'> },
  address: string,
): Promise<ErasureReport> {
  const subject = await findSubject(storage, forms, address);
  const own = await eraseRequests({ storage, mailFolders }, subject.own.map((r) => r.id));
  const toThem = await eraseMails({ storage, mailFolders }, subject.mails);
  let requestsNamingThem = 0;
  for (const request of subject.namedIn) {
    // namedIn holds only requests of known forms: the dealer field of the form it was sent with named the person.
    const field = (await forms.of(request))?.model.roles['dealer-email'];
    if (field === undefined) continue;
    const { [field]: _address, ...kept } = JSON.parse(request.payload) as Record<string, unknown>;
    if (await storage.rewriteRequest(request.id, JSON.stringify(kept))) requestsNamingThem++;
  }
  const rewritten: OutboxRow[] = [];
  for (const mail of await storage.deliveriesOf(subject.namedIn.map((r) => r.id))) {
    const [title, body] = [scrubAddress(mail.subject, subject.mailbox), scrubAddress(mail.body, subject.mailbox)];
    if (title === mail.subject && body === mail.body) continue;
    await storage.rewriteMail(mail.id, title, body);
    rewritten.push(mail);
  }
  const rewrittenFiles = await removeMailFiles(mailFolders, rewritten);
  await storage.reclaim();
  return {
    requests: own.requests,
    photos: own.photos,
    deliveries: own.mails,
    mailsToThem: toThem.mails,
    requestsNamingThem,
    deliveriesQuotingThem: rewritten.length,
    mailFiles: own.files + toThem.files + rewrittenFiles,
  };
}
