import type { FormModel } from '../../core/form-model';
import { mailboxOf } from '../../core/mailbox';
import type { FormRevisions } from '../revisions/form-revisions';
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
 * How a stored request names a person: as its customer (role customer-email), as its dealer (role
 * dealer-email), or not, by the roles of the form it was sent with (`model`), whatever the form calls
 * those fields today. A request whose form is unknown cannot tell the two apart: an address in any of
 * its fields counts as the customer's, so nothing of the person stays.
 */
export function namedAs(model: Pick<FormModel, 'roles'> | undefined, request: Pick<StoredRequest, 'payload'>, mailbox: string): 'customer' | 'dealer' | undefined {
  const payload = JSON.parse(request.payload) as Record<string, unknown>;
  const reaches = (field: string | undefined) => {
    const value = field === undefined ? undefined : payload[field];
    return typeof value === 'string' && mailboxOf(value) === mailbox;
  };
  if (!model) return Object.keys(payload).some(reaches) ? 'customer' : undefined;
  if (reaches(model.roles['customer-email'])) return 'customer';
  return reaches(model.roles['dealer-email']) ? 'dealer' : undefined;
}

/**
 * Finds a person's data for a subject-access or erasure request. The rule
 * which address is theirs is core's mailboxOf, the one the mail limit counts
 * by, applied to every request (a staff command: reading them all is fine).
 */
export async function findSubject(storage: Pick<Storage, 'requestsAfter' | 'mailsByLimitKey'>, forms: Pick<FormRevisions, 'of'>, address: string): Promise<Subject> {
  const mailbox = mailboxOf(address);
  const subject: Subject = { mailbox, own: [], namedIn: [], mails: [] };
  for (let after = 0; ; ) {
    const page = await storage.requestsAfter(after, PAGE);
    for (const request of page) {
      const role = namedAs((await forms.of(request))?.model, request, mailbox);
      if (role === 'customer') subject.own.push(request);
      else if (role === 'dealer') subject.namedIn.push(request);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].id;
  }
  const own = new Set(subject.own.map((r) => r.id));
  subject.mails = (await storage.mailsByLimitKey(mailbox)).filter((m) => !own.has(m.request_id));
  return subject;
}
