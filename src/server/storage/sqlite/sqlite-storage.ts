import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { DatabaseState, type StateLog } from '../database-state';
import { migrate, appliedVersion } from '../migrations/migrate';
import { PhotoFolder } from '../photo-folder';
import { MAIL_FOLDER } from '../mail-copies';
import { MailFolder } from '../mail-folder';
import type { Reclaimed, Storage } from '../port';
import { dueDeliveries } from '../queries/outbox';
import type { PortalDatabase } from '../schema';
import { sharedOperations } from '../shared-operations';
import { StoreRefusal } from '../store-refusal';
import { transferOf } from '../queries/transfer';
import { DATABASE_FILE, LOCK_WAIT_MS, openDatabase } from './connection';
import { NodeSqliteDialect } from './kysely-dialect';
import { SQLITE_PLAN } from './migrations';
import { memoryTally } from './memory-tally';
import { FolderMailCopies } from './folder-mail-copies';
import { SqlitePhotos } from './sqlite-photos';
import { SqliteWriterThread } from './writer-thread';

/**
 * Copies the write-ahead log into the database and truncates it to nothing: the log still holds pages
 * from before a deletion. A reader or writer busy at that moment holds it back: tried again for a while.
 */
async function emptyWal(db: Kysely<PortalDatabase>): Promise<Reclaimed> {
  for (let attempt = 0; ; attempt++) {
    const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    if (rows[0]?.busy === 0) return { done: true };
    if (attempt >= 50) return { done: false, reason: 'a reader or writer kept the database busy: its write-ahead log could not be emptied' };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Photos arrive, and with SQLite stay, in this folder of DATA_DIR. */
export const PHOTOS_DIR = 'photos';

/**
 * The SQLite backend: one database file in DATA_DIR (the default; `npm ci &&
 * npm start` needs nothing else), photo bytes as files beside it. Requests are
 * written by a thread of their own (writer-thread.ts); this connection reads,
 * and writes what is not a request.
 */
export async function openSqliteStorage(
  dataDir: string,
  { readonly = false, existing = readonly, log }: { readonly?: boolean; existing?: boolean; log?: StateLog } = {},
): Promise<Storage> {
  const file = join(dataDir, DATABASE_FILE);
  // Reading, or a staff command, never creates a database where there was none.
  if (existing && !existsSync(file)) throw new StoreRefusal('missing', `SQLite ${file} does not exist`);
  const state = new DatabaseState(log);
  // The server's connection runs on the event loop: it waits for a lock between tries, never asleep (kysely-dialect.ts).
  const dialect = existing
    ? new NodeSqliteDialect(openDatabase(dataDir, { readonly, existing }), state)
    : new NodeSqliteDialect(openDatabase(dataDir, { busyTimeoutMs: 0 }), state, LOCK_WAIT_MS);
  const db = new Kysely<PortalDatabase>({ dialect });
  try {
    if (!existing) await migrate(db, SQLITE_PLAN);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  let photos: SqlitePhotos | undefined;
  // Made when first used: the staff's reading commands never create the folder.
  const photoStore = () => (photos ??= new SqlitePhotos(db, new PhotoFolder(join(dataDir, PHOTOS_DIR))));
  // Mails kept without SMTP are files beside the database: whoever opens it has them (a moved folder too).
  const mailCopies = new FolderMailCopies(db, new MailFolder(join(dataDir, MAIL_FOLDER)));
  const hasMigrations = async () =>
    (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`.execute(db)).rows.length > 0;
  return {
    description: `SQLite ${file}`,
    state,
    rateLimitStore: undefined,
    tally: memoryTally(),
    get photos() {
      return photoStore();
    },
    mailCopies,
    openWriter: (policy) => SqliteWriterThread.start(dataDir, policy, state),
    leaseDue: (channel, limit, busy, now) => dueDeliveries(db, channel, limit, busy, now),
    ...sharedOperations({ db, removePhotoBytes: (names) => photoStore().removeFiles(names), mailCopies }),
    // Only PostgreSQL's servers of an earlier release wrote mails to folders of their own.
    earlierMailFolders: async () => [],
    forgetMailFolder: async () => false,
    reclaim: () => emptyWal(db),
    transfer: transferOf({
      db,
      schemaVersion: async () => appliedVersion(db, await hasMigrations()),
      insertPhotos: (tx, rows) => photoStore().insert(tx, rows),
      photoBytes: async (names) => (await Promise.all(names.map((n) => photoStore().size(n)))).reduce<number>((sum, n) => sum + (n ?? 0), 0),
    }),
    close: () => db.destroy(),
  };
}
