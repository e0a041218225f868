import { openStorage } from '../../server/storage/open-storage';
import type { Storage } from '../../server/storage/port';
import type { PhotoRow, StoredRequest } from '../../server/storage/records';
import { StoreRefusal } from '../../server/storage/store-refusal';
import { verify, type PhotoFiles } from './compare-counts';

/**
 * `npm run requests -- migrate-to-postgres`: moves a stopped server's SQLite
 * DATA_DIR (the database and the photo files) into PostgreSQL (DATABASE_URL).
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
        console.error(`${source.description} → ${target.description}`);
        const files = await checkPhotoFiles(source, options.allowMissingPhotos);
        const started = Date.now();
        const missing = new Set(files.missing.map((p) => p.name));
        await moveRequests(source, target, missing);
        await moveMailFiles(target);
        await moveUnclaimedPhotos(source, target, missing);
        console.error(`moved in ${((Date.now() - started) / 1000).toFixed(1)} s; verifying`);
        return (await verify(source.transfer, target.transfer, files)) ? 0 : 1;
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

function refuseWithout({ databaseUrl }: MigrateOptions): void {
  if (!databaseUrl) throw new Refusal('DATABASE_URL is not set: it names the PostgreSQL database to move the requests into.');
}

/** The SQLite database, read-only, of this release's schema (an older one is brought up to date by starting the server once). */
async function openSource(dataDir: string): Promise<Storage> {
  return openStorage({ dataDir, databaseUrl: '', databasePoolSize: 1 }, { readonly: true }).catch((error: Error) => {
    if (!(error instanceof StoreRefusal)) throw error;
    throw new Refusal(error.kind === 'version' ? error.message : `${error.message}: set DATA_DIR to the SQLite server's folder.`);
  });
}

/** The PostgreSQL database, its schema brought up to date; one that cannot be reached is said plainly (the URL may hold a password). */
async function openTarget({ dataDir, databaseUrl }: MigrateOptions): Promise<Storage> {
  return openStorage({ dataDir, databaseUrl, databasePoolSize: 2 }).catch((error: Error) => {
    throw new Refusal(`Cannot open the PostgreSQL database (DATABASE_URL): ${error.message}`);
  });
}

/**
 * The mails SQLite's server kept as .eml files in DATA_DIR/outbox go into the database with their rows
 * (PostgreSQL keeps them there, where erasure run from anywhere reaches them), found by their Message-ID:
 * the rows' ids change, message ids do not. Those whose mail is no longer stored are removed.
 */
async function moveMailFiles(target: Storage): Promise<void> {
  const { moved, removed } = await target.mailCopies.tidy();
  if (moved + removed > 0) console.error(`mail files: ${moved} moved into the database (${target.mailCopies.place}) by their Message-ID, ${removed} of mails no longer stored removed`);
}

/** Finds photo rows whose file is gone before anything moves: refused unless allowed, and listed either way. */
async function checkPhotoFiles(source: Storage, allowMissing: boolean): Promise<PhotoFiles> {
  const files: PhotoFiles = { missing: [], presentBytes: 0 };
  for (const photo of await source.transfer.photoRows()) {
    const size = await source.photos.size(photo.name);
    if (size === undefined) files.missing.push(photo);
    else files.presentBytes += size;
  }
  if (files.missing.length === 0) return files;
  const claimed = files.missing.filter((p) => p.request_id !== null).length;
  const listing = `${files.missing.length} photo file(s) missing in ${source.description}'s photos ` +
    `(${claimed} of requests, ${files.missing.length - claimed} unclaimed):\n  ${files.missing.map((p) => p.name).join('\n  ')}`;
  if (!allowMissing) throw new Refusal(`${listing}\nNothing was moved. Restore them, or run again with --allow-missing-photos to move those requests without them.`);
  console.error(`${listing}\nMoving their requests without them (--allow-missing-photos).`);
  return files;
}

/** Every request in batches, each batch in one transaction with its photos and deliveries. */
async function moveRequests(source: Storage, target: Storage, missing: Missing): Promise<void> {
  // The forms the requests were sent with go first: every request names its own.
  await target.transfer.importFormRevisions(await source.transfer.formRevisions());
  const total = await source.transfer.requestCount();
  let moved = 0;
  let seen = 0;
  for (let after = 0; ; ) {
    const requests = await source.requestsAfter(after, BATCH);
    if (requests.length === 0) break;
    moved += await target.transfer.importRequests(await batchOf(source, requests, missing));
    const before = seen;
    seen += requests.length;
    if (Math.floor(seen / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY) || seen === total) {
      console.error(`requests: ${seen}/${total} (${moved} moved, ${seen - moved} already there)`);
    }
    after = requests[requests.length - 1].id;
  }
}

/** A batch of requests with their photos (bytes read from their files) and their deliveries. */
async function batchOf(source: Storage, requests: StoredRequest[], missing: Missing) {
  const ids = requests.map((r) => r.id);
  const photos = await withBytes(source, await source.transfer.photosOfRequests(ids), missing);
  return { requests, photos, mails: await source.transfer.mailsOfRequests(ids) };
}

/** Photos no request has claimed (yet): moved by name, those already there left as they are. */
async function moveUnclaimedPhotos(source: Storage, target: Storage, missing: Missing): Promise<void> {
  const photos = (await source.transfer.photoRows()).filter((p) => p.request_id === null);
  let moved = 0;
  for (let at = 0; at < photos.length; at += BATCH) {
    moved += await target.photos.import(await withBytes(source, photos.slice(at, at + BATCH), missing));
  }
  console.error(`unclaimed photos: ${photos.length} (${moved} moved)`);
}

/** Photo rows with their files' bytes, but those whose file is known to be missing. */
async function withBytes(source: Storage, photos: PhotoRow[], missing: Missing): Promise<(PhotoRow & { data: Buffer })[]> {
  const found: (PhotoRow & { data: Buffer })[] = [];
  for (const photo of photos.filter((p) => !missing.has(p.name))) {
    const data = await source.photos.read(photo.name);
    if (!data) throw new Error(`photo file ${photo.name} disappeared while moving: is the server still running on DATA_DIR?`);
    found.push({ ...photo, data });
  }
  return found;
}
