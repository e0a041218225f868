import { Kysely, sql } from 'kysely';
import { DatabaseState, type StateLog } from '../database-state';
import { appliedVersion, migrate } from '../migrate';
import { PhotoFolder } from '../photo-folder';
import type { Storage } from '../port';
import { transferOf } from '../queries/transfer';
import type { PortalDatabase } from '../schema';
import { sharedOperations } from '../shared-operations';
import { PortalPostgresDialect } from './kysely-dialect';
import { leaseDue } from './lease';
import { POSTGRES_PLAN } from './migrations';
import { describeUrl, openPool } from './pool';
import { PostgresPhotos } from './postgres-photos';
import { PostgresSql } from './postgres-sql';
import { postgresTally } from './counters';
import { postgresRateLimitStore } from './rate-limit-store';
import { PostgresRequestWriter } from './request-writer';

export interface PostgresStorageOptions {
  url: string;
  poolSize: number;
  /** How long an instance holds the deliveries it took before another may send them (it died). */
  deliveryLeaseMs: number;
  /** Where uploads are received (DATA_DIR/photos): PostgreSQL keeps the photos' bytes in their rows. */
  uploadsDir: string;
}

/**
 * The PostgreSQL backend (DATABASE_URL): several instances share requests,
 * photos (bytes in the row), idempotency keys, the outbox and the rate-limit
 * counters. Instances migrate one after the other at start.
 */
/** Each instance's mail folder is a row of portal_settings named by this and the folder; a row named by this alone: an earlier release's. */
const MAIL_FILES = 'mail_files_dir';

export async function openPostgresStorage(
  options: PostgresStorageOptions,
  { log, existing = false }: { log?: StateLog; existing?: boolean } = {},
): Promise<Storage> {
  const state = new DatabaseState(log);
  const pool = openPool({ url: options.url, poolSize: options.poolSize });
  const db = new Kysely<PortalDatabase>({ dialect: new PortalPostgresDialect(pool, state) });
  try {
    // A staff command's store is the servers' own: it is checked (open-storage.ts), never made or migrated.
    if (!existing) await migrate(db, POSTGRES_PLAN);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const raw = new PostgresSql(pool, state);
  // Counters need no fsync: their own few connections commit without waiting for the disk.
  const counters = openPool({ url: options.url, poolSize: 4, durable: false });
  const tally = postgresTally(new PostgresSql(counters, state));
  let photos: PostgresPhotos | undefined;
  const photoStore = () => (photos ??= new PostgresPhotos(db, new PhotoFolder(options.uploadsDir)));
  return {
    description: `PostgreSQL ${describeUrl(options.url)}`,
    state,
    rateLimitStore: postgresRateLimitStore(tally),
    tally,
    get photos() {
      return photoStore();
    },
    openWriter: async (policy) => new PostgresRequestWriter(raw, db, policy),
    leaseDue: (channel, limit, busy, now) => leaseDue(raw, options.deliveryLeaseMs, channel, limit, busy, now),
    // Staff commands run on other machines than the servers: where the servers write mail files is kept here.
    // Every instance its own row: each writes to its own DATA_DIR, and erasure must reach them all.
    mailFilesDirs: async () => {
      const rows = await db.selectFrom('portal_settings').select('value').where((eb) => eb.or([eb('name', '=', MAIL_FILES), eb('name', 'like', `${MAIL_FILES}:%`)])).execute();
      return [...new Set(rows.map((r) => r.value))];
    },
    recordMailFilesDir: async (dir) =>
      void (await db.insertInto('portal_settings').values({ name: `${MAIL_FILES}:${dir}`, value: dir }).onConflict((oc) => oc.column('name').doNothing()).execute()),
    ...sharedOperations({ db, removePhotoBytes: async () => {} }),
    // A plain vacuum frees dead rows but leaves their bytes in the pages it keeps: the tables that hold
    // text about people are written anew (their files replaced; submits wait for the lock meanwhile).
    // Photo rows hold no names or addresses: freeing them is enough.
    reclaim: async () => {
      await sql`VACUUM FULL requests, outbox`.execute(db);
      await sql`VACUUM photos`.execute(db);
    },
    transfer: transferOf({
      db,
      schemaVersion: async () => {
        const { rows } = await sql<{ found: string | null }>`SELECT to_regclass('schema_migrations')::text AS found`.execute(db);
        return appliedVersion(db, rows[0]?.found !== null);
      },
      insertPhotos: (tx, rows, skipExisting) => photoStore().insert(tx, rows, skipExisting),
      photoBytes: (names) => photoStore().bytesOf(names),
    }),
    close: async () => {
      await counters.end();
      await db.destroy();
    },
  };
}
