import { join } from 'node:path';
import { MAIL_SPOOL_DIR, removeSpooledMails } from '../delivery/mail/transport';
import type { Storage } from '../storage/port';

export interface Erased {
  requests: number;
  photos: number;
  mails: number;
  /** .eml files of those mails (written when no SMTP server is configured). */
  files: number;
}

/** What erasure works on: the storage, and DATA_DIR (the mail files). */
export interface Holdings {
  storage: Pick<Storage, 'eraseRequests' | 'eraseMails' | 'expiredRequests'>;
  dataDir: string;
}

/**
 * Removes requests with everything held for them: their photos, their
 * outbox rows (mails and deliveries) and the .eml files of those mails.
 * Rows go first, in one transaction; files follow (a crash in between leaves
 * files the start-up cleanup of strays removes).
 */
export async function eraseRequests({ storage, dataDir }: Holdings, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { requests: 0, photos: 0, mails: 0, files: 0 };
  const rows = await storage.eraseRequests(ids);
  const files = await removeSpooledMails(spoolOf(dataDir), rows.mails);
  return { requests: rows.requests, photos: rows.photos, mails: rows.mails.length, files };
}

/** Removes outbox rows (mails to an address, about requests kept) and their .eml files; returns both counts. */
export async function eraseMails({ storage, dataDir }: Holdings, ids: readonly number[]): Promise<{ mails: number; files: number }> {
  if (ids.length === 0) return { mails: 0, files: 0 };
  const mails = await storage.eraseMails(ids);
  return { mails, files: await removeSpooledMails(spoolOf(dataDir), ids) };
}

/** The .eml files of mails kept but changed (what they said is no longer so): they go. */
export function removeMailFiles(dataDir: string, ids: readonly number[]): Promise<number> {
  return removeSpooledMails(spoolOf(dataDir), ids);
}

const spoolOf = (dataDir: string) => join(dataDir, MAIL_SPOOL_DIR);
