import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_DIR, PHOTOS_DIR } from '../storage/data-dirs';
import type { Db } from '../storage/database';

export interface Erased {
  requests: number;
  photos: number;
  mails: number;
  files: number;
}

/** The ids of a list, as one JSON parameter: any number of ids without building SQL. */
const idsParam = (ids: readonly number[]) => JSON.stringify(ids);

/**
 * Removes requests with everything held for them: their photos (rows and
 * files), their outbox rows (mails and deliveries) and the .eml files of
 * those mails in DATA_DIR/outbox (named `<outbox id>-<kind>.eml`). Rows go
 * first, in one transaction; files follow (a crash in between leaves files
 * the start-up cleanup of strays removes).
 */
export async function eraseRequests(db: Db, dataDir: string, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { requests: 0, photos: 0, mails: 0, files: 0 };
  const rows = db
    .transaction(() => {
      const param = idsParam(ids);
      const mails = db.prepare('DELETE FROM outbox WHERE request_id IN (SELECT value FROM json_each(?)) RETURNING id').all(param) as { id: number }[];
      const photos = db.prepare('DELETE FROM photos WHERE request_id IN (SELECT value FROM json_each(?)) RETURNING name').all(param) as { name: string }[];
      const requests = db.prepare('DELETE FROM requests WHERE id IN (SELECT value FROM json_each(?))').run(param).changes;
      return { requests, mails: mails.map((m) => m.id), photos: photos.map((p) => p.name) };
    })
    .immediate();
  const files = await removeFiles(dataDir, rows.photos, rows.mails);
  return { requests: rows.requests, photos: rows.photos.length, mails: rows.mails.length, files };
}

/** Removes outbox rows (mails to an address, about requests kept) and their .eml files. */
export async function eraseMails(db: Db, dataDir: string, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  db.prepare('DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?))').run(idsParam(ids));
  await removeFiles(dataDir, [], ids);
  return ids.length;
}

async function removeFiles(dataDir: string, photos: readonly string[], mailIds: readonly number[]): Promise<number> {
  const paths = photos.map((name) => join(dataDir, PHOTOS_DIR, name));
  if (mailIds.length > 0) {
    const ids = new Set(mailIds.map(String));
    const outbox = join(dataDir, OUTBOX_DIR);
    const names = await readdir(outbox).catch(() => [] as string[]);
    paths.push(...names.filter((n) => n.endsWith('.eml') && ids.has(n.split('-')[0])).map((n) => join(outbox, n)));
  }
  await Promise.all(paths.map((path) => rm(path, { force: true })));
  return paths.length;
}
