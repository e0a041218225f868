import { mailboxOf } from '../../core/mailbox';
import type { Storage } from '../storage/port';
import type { OutboxRow, StoredRequest } from '../storage/records';

/** Requests read per page when looking for a person. */
const PAGE = 500;

/** Everything held that names one person, found by the mailbox their address reaches (any case, any +tag). */
export interface Subject {
  mailbox: string;
  /** Requests the person sent: their address is the customer's. */
  own: StoredRequest[];
  /** Other people's requests that give the person's address as their dealer's. */
  namedIn: StoredRequest[];
  /** Mails to the person about requests not their own (a dealer's notice). */
  mails: OutboxRow[];
}

/**
 * Finds a person's data for a subject-access or erasure request. The rule
 * which address is theirs is core's mailboxOf, the one the mail limit counts
 * by, applied to every request (a staff command: reading them all is fine).
 */
export async function findSubject(storage: Pick<Storage, 'requestsAfter' | 'mailsByLimitKey'>, address: string): Promise<Subject> {
  const mailbox = mailboxOf(address);
  const subject: Subject = { mailbox, own: [], namedIn: [], mails: [] };
  for (let after = 0; ; ) {
    const page = await storage.requestsAfter(after, PAGE);
    for (const request of page) {
      const { client_email, notification } = JSON.parse(request.payload) as { client_email?: string; notification?: string };
      if (client_email && mailboxOf(client_email) === mailbox) subject.own.push(request);
      else if (notification && mailboxOf(notification) === mailbox) subject.namedIn.push(request);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].id;
  }
  const own = new Set(subject.own.map((r) => r.id));
  subject.mails = (await storage.mailsByLimitKey(mailbox)).filter((m) => !own.has(m.request_id));
  return subject;
}
