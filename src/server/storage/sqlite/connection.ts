import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { nodeSqlite } from './node-sqlite';

export type Db = DatabaseSync;

export const DATABASE_FILE = 'requests.db';

/**
 * How long a write of the server waits for the write lock another process holds (a backup, an operator's
 * sqlite3) before it is refused with 503: a request is answered within seconds, not held for the whole lock.
 */
export const LOCK_WAIT_MS = 2_500;

/** Columns added before the schema had versions: a database of that time gets them before migration 1 indexes them. */
const ADDED_COLUMNS: Record<string, Record<string, string>> = {
  photos: { owner: 'TEXT', bytes: 'INTEGER NOT NULL DEFAULT 0' },
  outbox: { message_id: 'TEXT', queued_at: 'INTEGER' },
};

/**
 * Opens (and, unless `existing`, creates) the SQLite request database with durable settings:
 * WAL with synchronous=FULL fsyncs the log at every commit, so an answered
 * request survives a power cut. The schema is made by `migrate`
 * (migrations.ts). Write only through .run()/.all(): `.get()` on a writing
 * statement can hide SQLITE_FULL (see notes/intake-server.md). `existing`
 * (the staff commands) changes neither the folder nor the file nor its schema. `busyTimeoutMs`: how long a
 * statement sleeps on this thread for a lock held elsewhere (the server's main thread: 0, it waits elsewhere).
 */
export function openDatabase(
  dataDir: string,
  { readonly = false, existing = readonly, busyTimeoutMs = 5000 }: { readonly?: boolean; existing?: boolean; busyTimeoutMs?: number } = {},
): Db {
  const path = join(dataDir, DATABASE_FILE);
  if (!existing) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // Personal data: owner only; SQLite gives the -wal and -shm files the database file's mode. The file
    // is made here only while it does not exist, so no connection can be open on it: POSIX locks belong
    // to the process, and closing any other descriptor of the file drops them all, after which a reader
    // elsewhere believes it is alone, checkpoints and deletes the WAL this process goes on writing to.
    if (!existsSync(path)) writeFileSync(path, '', { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  }
  const db = new (nodeSqlite().DatabaseSync)(path, { readOnly: readonly, timeout: busyTimeoutMs });
  if (readonly) return db;
  // secure_delete: what is deleted (retention, erasure) is overwritten with zeros, not left in free pages.
  // temp_store in memory: a batch's per-item savepoints keep the pages they change in a sub-journal, which
  // spilled to a temporary file past 64 KiB: a quarter of the request writer's time went to writing it.
  db.exec('PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY');
  // WAL is kept in the file: the server sets it when it makes the database; an existing one has it.
  if (existing) return db;
  db.exec('PRAGMA journal_mode = WAL');
  for (const [table, columns] of Object.entries(ADDED_COLUMNS)) addMissingColumns(db, table, columns);
  return db;
}

function addMissingColumns(db: Db, table: string, columns: Record<string, string>): void {
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').all('table', table).length > 0;
  if (!exists) return;
  const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of Object.entries(columns)) {
    if (!have.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
  }
}
