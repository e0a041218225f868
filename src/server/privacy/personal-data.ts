import { removeSpooledMails } from '../delivery/mail/transport';
import type { Storage } from '../storage/port';
import { messageIdOf, type OutboxRow } from '../storage/records';

export interface Erased {
  requests: number;
  photos: number;
  mails: number;
  /** .eml files of those mails (written when no SMTP server is configured). */
  files: number;
}

/** What erasure works on: the storage, and the folders mail files are written to (DATA_DIR/outbox of each instance). */
export interface Holdings {
  storage: Pick<Storage, 'eraseRequests' | 'eraseMails' | 'expiredRequests'>;
  mailFolders: readonly string[];
}

/**
 * Removes requests with everything held for them: their photos, their
 * outbox rows (mails and deliveries) and the .eml files of those mails.
 * Rows go first, in one transaction; files follow (a mail being written
 * meanwhile is removed by its writer, which finds its row gone).
 */
export async function eraseRequests({ storage, mailFolders }: Holdings, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { requests: 0, photos: 0, mails: 0, files: 0 };
  const rows = await storage.eraseRequests(ids);
  const files = await removeSpooledMails(mailFolders, rows.mails);
  return { requests: rows.requests, photos: rows.photos, mails: rows.mails.length, files };
}

/** Removes outbox rows (mails to an address, about requests kept) and their .eml files; returns both counts. */
export async function eraseMails({ storage, mailFolders }: Holdings, mails: readonly OutboxRow[]): Promise<{ mails: number; files: number }> {
  if (mails.length === 0) return { mails: 0, files: 0 };
  const erased = await storage.eraseMails(mails.map((m) => m.id));
  return { mails: erased, files: await removeSpooledMails(mailFolders, mails.map(messageIdOf)) };
}

/** The .eml files of mails kept but changed (what they said is no longer so): they go. */
export function removeMailFiles(mailFolders: readonly string[], mails: readonly OutboxRow[]): Promise<number> {
  return removeSpooledMails(mailFolders, mails.map(messageIdOf));
}
