import { eraseMails, eraseRequests, type Holdings } from '../../server/privacy/personal-data';
import { findSubjectData } from '../../server/privacy/subject-data';

/**
 * `erase --email`: removes the person's requests with their photos, mails
 * and mail files, and mails sent to the address about other requests.
 * Returns counts only: what is logged of an erasure names no one.
 */
export async function eraseSubject(held: Holdings, email: string) {
  const found = await findSubjectData(held.storage, email);
  const erased = await eraseRequests(held, found.requests.map((r) => r.id));
  const otherMails = await eraseMails(held, found.otherMails.map((m) => m.id));
  return { ...erased, mails: erased.mails + otherMails };
}
