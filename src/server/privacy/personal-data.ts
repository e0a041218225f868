import type { Storage } from '../storage/port';
import type { OutboxRow } from '../storage/records';

export interface Erased {
  requests: number;
  photos: number;
  mails: number;
  /** Copies of those mails kept for lack of SMTP (storage's MailCopies). */
  files: number;
}

/** What erasure and retention work on. */
export type Holdings = Pick<Storage, 'eraseRequests' | 'eraseMails' | 'expiredRequests'>;

/**
 * Removes requests with everything held for them: their photos, their
 * outbox rows (mails and deliveries) and the copies of those mails, in
 * the storage's one call (rows in one transaction, then files where
 * copies are files: a mail being written meanwhile is removed by its writer).
 */
export async function eraseRequests(storage: Holdings, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { requests: 0, photos: 0, mails: 0, files: 0 };
  const rows = await storage.eraseRequests(ids);
  return { requests: rows.requests, photos: rows.photos, mails: rows.mails.length, files: rows.mailCopies };
}

/** Removes outbox rows (mails to an address, about requests kept) and their copies; returns both counts. */
export async function eraseMails(storage: Holdings, mails: readonly OutboxRow[]): Promise<{ mails: number; files: number }> {
  if (mails.length === 0) return { mails: 0, files: 0 };
  const erased = await storage.eraseMails(mails);
  return { mails: erased.mails, files: erased.mailCopies };
}
