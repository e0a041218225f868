import type { FormRevisions } from '../revisions/form-revisions';
import type { Reclaimed, Storage } from '../storage/port';
import { eraseMails, eraseRequests } from './personal-data';
import { scrubAddress } from './scrub-address';
import { findSubject, type Subject } from './subject';

type ErasureStorage = Pick<
  Storage,
  'requestsAfter' | 'mailsByLimitKey' | 'deliveriesOf' | 'eraseRequests' | 'eraseMails' | 'expiredRequests' | 'rewriteRequest' | 'rewriteMail' | 'reclaim' | 'mailCopies'
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
  /** Copies of mails kept for lack of SMTP (storage's MailCopies), removed with their mails or rewritten ones. */
  mailFiles: number;
}

export interface Erasure {
  counts: ErasureReport;
  /** Whether the database's files no longer hold what was removed (storage.reclaim); the rows are gone either way. */
  reclaimed: Reclaimed;
}

/**
 * Erases a person (a GDPR erasure request), found by the mailbox their address
 * reaches: their requests with photos, deliveries and mail copies; their
 * address wherever another request names them as its dealer (the request,
 * and what was sent of it); mails to them. Then the database leaves no copy
 * of it in its files (storage.reclaim). Where a copy may be that cannot be
 * reached from here, it throws CopiesOutOfReach before erasing anything:
 * rows gone while a copy stays could never be found again.
 */
export async function eraseSubject({ storage, forms }: { storage: ErasureStorage; forms: Pick<FormRevisions, 'of'> }, address: string): Promise<Erasure> {
  await storage.mailCopies.check();
  const subject = await findSubject(storage, forms, address);
  const own = await eraseRequests(storage, subject.own.map((r) => r.id));
  const toThem = await eraseMails(storage, subject.mails);
  const named = await scrubNamedIn(storage, forms, subject);
  // Copies a removal left before (its folder out of reach then): no later erasure could find them by their rows.
  const strays = await storage.mailCopies.sweep();
  return {
    counts: {
      requests: own.requests,
      photos: own.photos,
      deliveries: own.mails,
      mailsToThem: toThem.mails,
      requestsNamingThem: named.requests,
      deliveriesQuotingThem: named.deliveries,
      mailFiles: own.files + toThem.files + named.files + strays,
    },
    reclaimed: await storage.reclaim(),
  };
}

/** Takes the person's address out of the requests naming them as dealer, and out of what was sent of those. */
async function scrubNamedIn(
  storage: ErasureStorage,
  forms: Pick<FormRevisions, 'of'>,
  subject: Subject,
): Promise<{ requests: number; deliveries: number; files: number }> {
  let requests = 0;
  for (const request of subject.namedIn) {
    // namedIn holds only requests of known forms: the dealer field of the form it was sent with named the person.
    const field = (await forms.of(request))?.model.roles['dealer-email'];
    if (field === undefined) continue;
    const { [field]: _address, ...kept } = JSON.parse(request.payload) as Record<string, unknown>;
    if (await storage.rewriteRequest(request.id, JSON.stringify(kept))) requests++;
  }
  let deliveries = 0;
  let files = 0;
  for (const mail of await storage.deliveriesOf(subject.namedIn.map((r) => r.id))) {
    const [title, body] = [scrubAddress(mail.subject, subject.mailbox), scrubAddress(mail.body, subject.mailbox)];
    if (title === mail.subject && body === mail.body) continue;
    // Its copy goes: what it said is no longer so.
    files += await storage.rewriteMail(mail, title, body);
    deliveries++;
  }
  return { requests, deliveries, files };
}
