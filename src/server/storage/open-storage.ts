import { join } from 'node:path';
import type { StateLog } from './database-state';
import { newestVersion } from './migrate';
import type { Storage } from './port';
import { POSTGRES_MIGRATIONS } from './postgres/migrations';
import { openPostgresStorage } from './postgres/postgres-storage';
import { SQLITE_MIGRATIONS } from './sqlite/migrations';
import { openSqliteStorage, PHOTOS_DIR } from './sqlite/sqlite-storage';

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

const FIVE_MINUTES = 5 * 60_000;

/** Opens the configured backend and brings its schema up to date (each backend's migrations.ts). */
export function openStorage(
  { dataDir, databaseUrl, databasePoolSize, deliveryLeaseMs = FIVE_MINUTES }: StorageOptions,
  { readonly = false, log }: { readonly?: boolean; log?: StateLog } = {},
): Promise<Storage> {
  if (!databaseUrl) return openSqliteStorage(dataDir, { readonly });
  return openPostgresStorage({ url: databaseUrl, poolSize: databasePoolSize, deliveryLeaseMs, uploadsDir: join(dataDir, PHOTOS_DIR) }, { log });
}
