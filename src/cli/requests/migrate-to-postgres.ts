import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutboxRow } from '../../server/outbox/outbox-rows';
import { DATABASE_FILE } from '../../server/storage/database';
import { SCHEMA_VERSION } from '../../server/storage/migrations';
import { idsIn, type Param, type Sql } from '../../server/storage/sql';
import { openStorage, type Storage } from '../../server/storage/storage';
import { verify, type PhotoFiles } from './compare-counts';

/**
 * `npm run requests -- migrate-to-postgres`: moves a stopped server's SQLite
 * DATA_DIR (requests.db and the photo files) into PostgreSQL (DATABASE_URL).
 * Requests get new ids there and are matched by their unique reference, so a
 * run that stopped half-way is simply run again: requests already there are
 * skipped. Ends by comparing counts of both sides (docs/postgresql.md).
 */

export interface MigrateOptions {
  dataDir: string;
  databaseUrl: string;
  /** Move the requests whose photo files are gone, without those photos (refused otherwise). */
  allowMissingPhotos: boolean;
}

/** A refusal to start: said to the operator as it is, without a stack. */
class Refusal extends Error {}

/** Requests per PostgreSQL transaction: a batch is moved whole or not at all. */
const BATCH = 100;
const PROGRESS_EVERY = 1000;

interface SourceRequest {
  id: number;
  reference: string;
  brand: string;
  variant: string;
  locale: string;
  payload: string;
  idempotency_key: string | null;
  payload_hash: string;
  created_at: number;
}

interface SourcePhoto {
  name: string;
  created_at: number;
  request_id: number | null;
  owner: string | null;
  bytes: number;
}

/** Photo names whose file is known to be missing (allowed by --allow-missing-photos): their rows stay behind. */
type Missing = ReadonlySet<string>;

/** Runs the command; resolves to the exit code (0: moved and verified). */
export async function migrateToPostgres(options: MigrateOptions): Promise<number> {
  try {
    refuseWithout(options);
    const source = await openSource(options.dataDir);
    try {
      const target = await openTarget(options);
      try {
        const files = await checkPhotoFiles(source, options.allowMissingPhotos);
        const started = Date.now();
        const missing = new Set(files.missing.map((p) => p.name));
        await moveRequests(source, target.sql, missing);
        await moveUnclaimedPhotos(source, target.sql, missing);
        console.error(`moved in ${((Date.now() - started) / 1000).toFixed(1)} s; verifying`);
        return (await verify(source.sql, target.sql, files)) ? 0 : 1;
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    console.error(error.message);
    return 1;
  }
}

function refuseWithout({ dataDir, databaseUrl }: MigrateOptions): void {
  if (!databaseUrl) throw new Refusal('DATABASE_URL is not set: it names the PostgreSQL database to move the requests into.');
  if (!existsSync(join(dataDir, DATABASE_FILE))) throw new Refusal(`${join(dataDir, DATABASE_FILE)} does not exist: set DATA_DIR to the SQLite server's folder.`);
}

/** The SQLite database, read-only, of this release's schema (an older one is brought up to date by starting the server once). */
async function openSource(dataDir: string): Promise<Storage> {
  const source = await openStorage({ dataDir, databaseUrl: '', databasePoolSize: 1 }, { readonly: true });
  const versioned = (await source.sql.all("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")).length > 0;
  const [{ version }] = versioned ? await source.sql.all<{ version: number }>('SELECT max(version) AS version FROM schema_migrations') : [{ version: null }];
  if (version !== SCHEMA_VERSION) {
    await source.close();
    throw new Refusal(
      `${join(dataDir, DATABASE_FILE)} has schema version ${version ?? 'none'}, this release ${SCHEMA_VERSION}: ` +
        'start this release of the server on DATA_DIR once (it migrates at start), stop it, and run this again.',
    );
  }
  return source;
}

/** The PostgreSQL database, its schema brought up to date; one that cannot be reached is said plainly (the URL may hold a password). */
async function openTarget({ dataDir, databaseUrl }: MigrateOptions): Promise<Storage> {
  return openStorage({ dataDir, databaseUrl, databasePoolSize: 2 }).catch((error: Error) => {
    throw new Refusal(`Cannot open the PostgreSQL database (DATABASE_URL): ${error.message}`);
  });
}

/** Finds photo rows whose file is gone before anything moves: refused unless allowed, and listed either way. */
async function checkPhotoFiles(source: Storage, allowMissing: boolean): Promise<PhotoFiles> {
  const files: PhotoFiles = { missing: [], presentBytes: 0 };
  for (const photo of await source.sql.all<SourcePhoto>('SELECT name, created_at, request_id, owner, bytes FROM photos ORDER BY name')) {
    const size = await stat(source.photos.folder.pathOf(photo.name)).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      },
    );
    if (size === undefined) files.missing.push(photo);
    else files.presentBytes += size;
  }
  if (files.missing.length === 0) return files;
  const claimed = files.missing.filter((p) => p.request_id !== null).length;
  const listing = `${files.missing.length} photo file(s) missing in ${source.photos.folder.dir} ` +
    `(${claimed} of requests, ${files.missing.length - claimed} unclaimed):\n  ${files.missing.map((p) => p.name).join('\n  ')}`;
  if (!allowMissing) throw new Refusal(`${listing}\nNothing was moved. Restore them, or run again with --allow-missing-photos to move those requests without them.`);
  console.error(`${listing}\nMoving their requests without them (--allow-missing-photos).`);
  return files;
}

/** Every request in batches, each batch in one transaction with its photos and deliveries. */
async function moveRequests(source: Storage, target: Sql, missing: Missing): Promise<void> {
  const [{ total }] = await source.sql.all<{ total: number }>('SELECT count(*) AS total FROM requests');
  let moved = 0;
  let seen = 0;
  for (let after = 0; ; ) {
    const batch = await source.sql.all<SourceRequest>(
      `SELECT id, reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at
       FROM requests WHERE id > ? ORDER BY id LIMIT ?`,
      [after, BATCH],
    );
    if (batch.length === 0) break;
    moved += await target.transaction((tx) => moveBatch(source, tx, batch, missing));
    const before = seen;
    seen += batch.length;
    if (Math.floor(seen / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY) || seen === total) {
      console.error(`requests: ${seen}/${total} (${moved} moved, ${seen - moved} already there)`);
    }
    after = batch[batch.length - 1].id;
  }
}

const MAIL_COLUMNS = 'id, request_id, kind, recipient, subject, body, attempts, next_attempt_at, sent_at, failed_at, last_error, message_id, queued_at';

/** Inserts the batch's requests not yet in PostgreSQL, then their photos and deliveries; returns how many it inserted. */
async function moveBatch(source: Storage, tx: Sql, batch: SourceRequest[], missing: Missing): Promise<number> {
  const inserted = await tx.all<{ id: number; reference: string }>(
    `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at)
     VALUES ${rowsOf(batch.length, 8)} ON CONFLICT (reference) DO NOTHING RETURNING id, reference`,
    batch.flatMap((r) => [r.reference, r.brand, r.variant, r.locale, r.payload, r.idempotency_key, r.payload_hash, r.created_at]),
  );
  if (inserted.length === 0) return 0;
  const idOf = new Map(inserted.map((r) => [r.reference, r.id]));
  // Old id → new id, for the rows that point at a request.
  const newId = new Map(batch.filter((r) => idOf.has(r.reference)).map((r) => [r.id, idOf.get(r.reference)!]));
  const oldIds = JSON.stringify([...newId.keys()]);
  const photos = await source.sql.all<SourcePhoto>(
    `SELECT name, created_at, request_id, owner, bytes FROM photos WHERE request_id IN ${idsIn(source.sql)} ORDER BY name`,
    [oldIds],
  );
  await copyPhotos(source, tx, photos, (photo) => newId.get(photo.request_id!)!, missing, '');
  const mails = await source.sql.all<OutboxRow>(`SELECT ${MAIL_COLUMNS} FROM outbox WHERE request_id IN ${idsIn(source.sql)} ORDER BY id`, [oldIds]);
  if (mails.length > 0) {
    await tx.run(
      `INSERT INTO outbox (request_id, kind, recipient, subject, body, attempts, next_attempt_at, sent_at, failed_at, last_error, message_id, queued_at)
       VALUES ${rowsOf(mails.length, 12)}`,
      mails.flatMap((m) => [
        newId.get(m.request_id)!, m.kind, m.recipient, m.subject, m.body, m.attempts, m.next_attempt_at, m.sent_at, m.failed_at, m.last_error,
        // The id the workers derived for old rows, so a retry keeps the Message-ID / webhook-id receivers already saw.
        m.message_id ?? `outbox-${m.id}`,
        m.queued_at,
      ]),
    );
  }
  return inserted.length;
}

/** Photos no request has claimed (yet): moved by name, those already there left as they are. */
async function moveUnclaimedPhotos(source: Storage, target: Sql, missing: Missing): Promise<void> {
  const photos = await source.sql.all<SourcePhoto>('SELECT name, created_at, request_id, owner, bytes FROM photos WHERE request_id IS NULL ORDER BY name');
  const moved = await copyPhotos(source, target, photos, () => null, missing, ' ON CONFLICT (name) DO NOTHING');
  console.error(`unclaimed photos: ${photos.length} (${moved} moved)`);
}

/** Bytes of photos sent in one insert: few round trips, without holding a whole batch's photos in memory. */
const PHOTO_CHUNK_BYTES = 16 * 1024 * 1024;

/** Photo rows with their files' bytes, but those whose file is known to be missing. Returns the rows inserted. */
async function copyPhotos(
  source: Storage,
  target: Sql,
  photos: SourcePhoto[],
  requestId: (photo: SourcePhoto) => number | null,
  missing: Missing,
  onConflict: string,
): Promise<number> {
  let inserted = 0;
  let chunk: Param[][] = [];
  let chunkBytes = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    inserted += await target.run(`INSERT INTO photos (name, created_at, request_id, owner, bytes, data) VALUES ${rowsOf(chunk.length, 6)}${onConflict}`, chunk.flat());
    chunk = [];
    chunkBytes = 0;
  };
  for (const photo of photos.filter((p) => !missing.has(p.name))) {
    const data = await source.photos.read(photo.name);
    if (!data) throw new Error(`photo file ${photo.name} disappeared while moving: is the server still running on DATA_DIR?`);
    chunk.push([photo.name, photo.created_at, requestId(photo), photo.owner, photo.bytes, data]);
    chunkBytes += data.length;
    if (chunkBytes >= PHOTO_CHUNK_BYTES || chunk.length >= BATCH) await flush();
  }
  await flush();
  return inserted;
}

/** `(?, ?), (?, ?)`: the VALUES of a multi-row insert. */
function rowsOf(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}
