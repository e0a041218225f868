import { eraseMails, eraseRequests } from '../../server/privacy/personal-data';
import { findSubjectData } from '../../server/privacy/subject-data';
import type { Db } from '../../server/storage/database';

/**
 * `erase --email`: removes the person's requests with their photos, mails
 * and mail files, and mails sent to the address about other requests.
 * Returns counts only: what is logged of an erasure names no one.
 */
export async function eraseSubject(db: Db, dataDir: string, email: string) {
  const held = findSubjectData(db, dataDir, email);
  const erased = await eraseRequests(db, dataDir, held.requests.map((r) => r.id));
  const otherMails = await eraseMails(db, dataDir, held.otherMails.map((m) => m.id));
  return { ...erased, mails: erased.mails + otherMails };
}
