import { join, resolve } from 'node:path';
import type { StateLog } from './database-state';
import { MAIL_FOLDER } from './mail-copies';
import { newestVersion } from './migrations/migrate';
import type { Storage } from './port';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations/history';
import { openPostgresStorage } from './postgres/postgres-storage';
import { openSqliteStorage, PHOTOS_DIR } from './sqlite/sqlite-storage';
import { StoreRefusal } from './store-refusal';

/** The schema version this release makes (both backends' migrations agree; the storage contract test checks it). */
export const SCHEMA_VERSION = Math.min(newestVersion(SQLITE_MIGRATIONS), newestVersion(POSTGRES_MIGRATIONS));

export interface StorageOptions {
  dataDir: string;
  /** PostgreSQL when set; otherwise SQLite in DATA_DIR. */
  databaseUrl: string;
  databasePoolSize: number;
  /** PostgreSQL: how long an instance holds the deliveries it took before another may send them. */
  deliveryLeaseMs?: number;
}

export interface OpenOptions {
  /** SQLite opened read-only; implies `existing`. */
  readonly?: boolean;
  /**
   * Only a store a server of this release made (the staff commands): nothing is created or migrated,
   * and a missing store, one without the portal's tables, or one of another schema version is refused
   * with a StoreRefusal.
   */
  existing?: boolean;
  log?: StateLog;
}

const FIVE_MINUTES = 5 * 60_000;

/** Opens the configured backend and, unless `existing`, brings its schema up to date (each backend's migrations.ts). */
export async function openStorage(
  { dataDir, databaseUrl, databasePoolSize, deliveryLeaseMs = FIVE_MINUTES }: StorageOptions,
  { readonly = false, existing = readonly, log }: OpenOptions = {},
): Promise<Storage> {
  const storage = databaseUrl
    ? await openPostgresStorage(
        { url: databaseUrl, poolSize: databasePoolSize, deliveryLeaseMs, uploadsDir: join(dataDir, PHOTOS_DIR), earlierMailFolder: resolve(dataDir, MAIL_FOLDER) },
        { log, existing },
      )
    : await openSqliteStorage(dataDir, { readonly, existing, log });
  if (existing) await refuseUnlessCurrent(storage);
  return storage;
}

/** Closes and refuses a store that does not answer, holds no portal data, or is of another release's schema. */
async function refuseUnlessCurrent(storage: Storage): Promise<void> {
  const refuse = async (refusal: StoreRefusal) => {
    await storage.close();
    throw refusal;
  };
  let version: number | null | undefined;
  try {
    version = await storage.transfer.schemaVersion();
  } catch (error) {
    return refuse(new StoreRefusal('unreachable', `Cannot reach ${storage.description}: ${(error as Error).message}`));
  }
  if (version === SCHEMA_VERSION) return;
  if (version === undefined) return refuse(new StoreRefusal('missing', `${storage.description} holds no portal data (none of its tables)`));
  const advice =
    version !== null && version > SCHEMA_VERSION
      ? 'use the release that made it'
      : 'start this release of the server on it once (it brings the schema up to date at start), then run this again';
  return refuse(new StoreRefusal('version', `${storage.description} has schema version ${version ?? 'none'}, this release ${SCHEMA_VERSION}: ${advice}`));
}
