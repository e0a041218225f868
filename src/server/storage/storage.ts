import { join } from 'node:path';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { PhotoFolder } from '../photos/photo-folder';
import { openDatabase } from './database';
import { DatabaseState, type StateLog } from './database-state';
import { PHOTOS_DIR } from './data-dirs';
import { migrate } from './migrations';
import { openPostgres } from './postgres/postgres-sql';
import { postgresRateLimitStore } from './postgres/rate-limit-store';
import { PostgresRequestWriter } from './postgres/request-writer';
import type { Sql } from './sql';
import { SqliteSql } from './sqlite/sqlite-sql';
import { SqliteWriterThread } from './sqlite/writer-thread';
import { StoredPhotos } from './stored-photos';
import type { RequestWriter, WriterOptions } from './write-item';

export interface StorageOptions {
  dataDir: string;
  /** PostgreSQL when set; otherwise SQLite in DATA_DIR. */
  databaseUrl: string;
  databasePoolSize: number;
}

/** Where requests, photos and deliveries are kept: one backend, chosen by configuration. */
export interface Storage {
  readonly sql: Sql;
  /** Whether the database answers (PostgreSQL: as its last calls found it); the log hears of changes once. */
  readonly state: DatabaseState;
  readonly photos: StoredPhotos;
  /** Rate-limit counters every instance shares (PostgreSQL); undefined: the plugin's own, in memory. */
  readonly rateLimitStore: FastifyRateLimitStoreCtor | undefined;
  /** Starts what stores requests: SQLite's writer thread, or PostgreSQL's pool itself. */
  openWriter(options: WriterOptions): Promise<RequestWriter>;
  close(): Promise<void>;
}

/** Opens the configured backend and brings its schema up to date (migrations.ts). */
export async function openStorage(
  { dataDir, databaseUrl, databasePoolSize }: StorageOptions,
  { readonly = false, log }: { readonly?: boolean; log?: StateLog } = {},
): Promise<Storage> {
  const state = new DatabaseState(log);
  const sql = databaseUrl
    ? openPostgres({ url: databaseUrl, poolSize: databasePoolSize, state })
    : new SqliteSql(openDatabase(dataDir, { readonly }));
  try {
    if (!readonly) await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  let photos: StoredPhotos | undefined;
  // Counters need no fsync: their own few connections commit without waiting for the disk.
  const counters = databaseUrl ? openPostgres({ url: databaseUrl, poolSize: 4, durable: false, state }) : undefined;
  return {
    sql,
    state,
    rateLimitStore: counters && postgresRateLimitStore(counters),
    // Made when first used (the CLI's reading commands never create the folder). Uploads arrive in
    // DATA_DIR/photos on either backend; with SQLite they also stay there.
    get photos() {
      return (photos ??= new StoredPhotos(sql, new PhotoFolder(join(dataDir, PHOTOS_DIR))));
    },
    openWriter: (options) =>
      sql.dialect === 'postgres' ? Promise.resolve(new PostgresRequestWriter(sql, options)) : SqliteWriterThread.start(dataDir, options),
    close: async () => {
      await counters?.close();
      await sql.close();
    },
  };
}
