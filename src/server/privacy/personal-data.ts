import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_DIR } from '../storage/data-dirs';
import { idsIn, type Sql } from '../storage/sql';
import type { StoredPhotos } from '../storage/stored-photos';

export interface Erased {
  requests: number;
  photos: number;
  mails: number;
  files: number;
}

/** What erasure works on: the rows, the photos' bytes, and DATA_DIR (the mail files). */
export interface Holdings {
  sql: Sql;
  photos: StoredPhotos;
  dataDir: string;
}

/**
 * Removes requests with everything held for them: their photos, their
 * outbox rows (mails and deliveries) and the .eml files of those mails in
 * DATA_DIR/outbox (named `<outbox id>-<kind>.eml`). Rows go first, in one
 * transaction; files follow (a crash in between leaves files the start-up
 * cleanup of strays removes).
 */
export async function eraseRequests({ sql, photos, dataDir }: Holdings, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { requests: 0, photos: 0, mails: 0, files: 0 };
  const param = JSON.stringify(ids);
  const rows = await sql.transaction(async (tx) => {
    const mails = await tx.all<{ id: number }>(`DELETE FROM outbox WHERE request_id IN ${idsIn(tx)} RETURNING id`, [param]);
    const removed = await tx.all<{ name: string }>(`DELETE FROM photos WHERE request_id IN ${idsIn(tx)} RETURNING name`, [param]);
    const requests = await tx.run(`DELETE FROM requests WHERE id IN ${idsIn(tx)}`, [param]);
    return { requests, mails: mails.map((m) => m.id), photos: removed.map((p) => p.name) };
  });
  const files = (await photos.removeContent(rows.photos)) + (await removeMailFiles(dataDir, rows.mails));
  return { requests: rows.requests, photos: rows.photos.length, mails: rows.mails.length, files };
}

/** Removes outbox rows (mails to an address, about requests kept) and their .eml files. */
export async function eraseMails({ sql, dataDir }: Holdings, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  await sql.run(`DELETE FROM outbox WHERE id IN ${idsIn(sql)}`, [JSON.stringify(ids)]);
  await removeMailFiles(dataDir, ids);
  return ids.length;
}

async function removeMailFiles(dataDir: string, mailIds: readonly number[]): Promise<number> {
  if (mailIds.length === 0) return 0;
  const ids = new Set(mailIds.map(String));
  const outbox = join(dataDir, OUTBOX_DIR);
  const names = await readdir(outbox).catch(() => [] as string[]);
  const paths = names.filter((n) => n.endsWith('.eml') && ids.has(n.split('-')[0])).map((n) => join(outbox, n));
  await Promise.all(paths.map((path) => rm(path, { force: true })));
  return paths.length;
}
