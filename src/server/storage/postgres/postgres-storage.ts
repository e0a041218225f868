import { Kysely, sql, type ExpressionBuilder } from 'kysely';
import { DatabaseState, type StateLog } from '../database-state';
import { appliedVersion, migrate } from '../migrations/migrate';
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
import { copyRows, EARLIER_MAIL_FOLDER, PostgresMailCopies } from './postgres-mail-copies';
import { reclaimSpace } from './reclaim';
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
  /** DATA_DIR/outbox, absolute: where an earlier release wrote this instance's mails (moved into the database at start). */
  earlierMailFolder: string;
}

/**
 * The PostgreSQL backend (DATABASE_URL): several instances share requests,
 * photos (bytes in the row), idempotency keys, the outbox with the mails kept
 * without SMTP, and the rate-limit counters. Instances migrate one after the
 * other at start.
 */
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
  // What an earlier release recorded of each folder it wrote mails to: a row named `mail_files_dir` or `mail_files_dir:<folder>`.
  const earlier = (eb: ExpressionBuilder<PortalDatabase, 'portal_settings'>) =>
    eb.or([eb('name', '=', EARLIER_MAIL_FOLDER), eb('name', 'like', `${EARLIER_MAIL_FOLDER}:%`)]);
  const earlierMailFolders = async () => [...new Set((await db.selectFrom('portal_settings').select('value').where(earlier).execute()).map((r) => r.value))].sort();
  const mailCopies = new PostgresMailCopies(db, options.earlierMailFolder, earlierMailFolders);
  return {
    description: `PostgreSQL ${describeUrl(options.url)}`,
    state,
    rateLimitStore: postgresRateLimitStore(tally),
    tally,
    get photos() {
      return photoStore();
    },
    mailCopies,
    openWriter: async (policy) => new PostgresRequestWriter(raw, db, policy),
    leaseDue: (channel, limit, busy, now) => leaseDue(raw, options.deliveryLeaseMs, channel, limit, busy, now),
    earlierMailFolders,
    forgetMailFolder: async (folder) =>
      Number((await db.deleteFrom('portal_settings').where(earlier).where('value', '=', folder).executeTakeFirst()).numDeletedRows) > 0,
    ...sharedOperations({ db, removePhotoBytes: async () => {}, mailCopies, copyRows }),
    reclaim: () => reclaimSpace(pool),
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
