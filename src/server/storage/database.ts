import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export const DATABASE_FILE = 'requests.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS photos (
  name        TEXT PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  request_id  INTEGER REFERENCES requests(id),
  -- Who uploaded it and its size, while unclaimed: the storage quotas. Cleared on claim.
  owner       TEXT,
  bytes       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS photos_unclaimed ON photos(created_at) WHERE request_id IS NULL;
CREATE INDEX IF NOT EXISTS photos_unclaimed_owner ON photos(owner) WHERE request_id IS NULL;

CREATE TABLE IF NOT EXISTS requests (
  id               INTEGER PRIMARY KEY,
  reference        TEXT NOT NULL UNIQUE,
  brand            TEXT NOT NULL,
  variant          TEXT NOT NULL,
  locale           TEXT NOT NULL,
  payload          TEXT NOT NULL,
  idempotency_key  TEXT UNIQUE,
  payload_hash     TEXT NOT NULL,
  created_at       INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS outbox (
  id               INTEGER PRIMARY KEY,
  request_id       INTEGER NOT NULL REFERENCES requests(id),
  kind             TEXT NOT NULL,
  recipient        TEXT NOT NULL,
  subject          TEXT NOT NULL,
  body             TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  sent_at          INTEGER,
  failed_at        INTEGER,
  last_error       TEXT,
  message_id       TEXT,
  queued_at        INTEGER
);
-- The mail sender takes the oldest pending mails (ORDER BY id LIMIT n). Indexed by
-- next_attempt_at, that query sorted the whole backlog at every poll (10 ms at 80k
-- mails, stalling the thread that commits); by id it reads only the head of the pending ones.
DROP INDEX IF EXISTS outbox_due;
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(id) WHERE sent_at IS NULL AND failed_at IS NULL;
-- Retention and erasure find a request's mails and photos, and the oldest requests, without scanning.
CREATE INDEX IF NOT EXISTS outbox_request ON outbox(request_id);
CREATE INDEX IF NOT EXISTS photos_request ON photos(request_id) WHERE request_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS requests_created ON requests(created_at);
-- The per-recipient mail limit counts by (recipient, queued_at).
CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox(recipient, queued_at);
-- Each delivery worker (mail, webhook) reads its own due rows, earliest first: without the
-- channel in the index the webhook worker scanned the whole mail backlog at every look, and
-- ordered by id alone, rows waiting for a retry piled up at the head and were skipped at
-- every look (measured: 17 s of 53 s CPU with 80k mails failing). /metrics counts pending
-- and failed rows by kind without reading the delivered ones.
CREATE INDEX IF NOT EXISTS outbox_due_by_channel ON outbox((kind = 'webhook'), next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX IF NOT EXISTS outbox_failed ON outbox(kind) WHERE failed_at IS NOT NULL;
`;

/** Columns added after a table's first release: an existing database gets them before SCHEMA indexes them. */
const ADDED_COLUMNS: Record<string, Record<string, string>> = {
  // Who uploaded a photo and its size, while unclaimed: the storage quotas.
  photos: { owner: 'TEXT', bytes: 'INTEGER NOT NULL DEFAULT 0' },
  // Desk mails and webhooks need a stable message id; the per-recipient limit counts by queued_at.
  outbox: { message_id: 'TEXT', queued_at: 'INTEGER' },
};

/**
 * Opens (and creates) the request database with durable settings: WAL with
 * synchronous=FULL fsyncs the log at every commit, so an answered request
 * survives a power cut. Write only through .run()/.all(): `.get()` on a
 * writing statement can hide SQLITE_FULL (see notes/intake-server.md).
 */
export function openDatabase(dataDir: string, { readonly = false } = {}): Db {
  const path = join(dataDir, DATABASE_FILE);
  if (!readonly) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // Personal data: owner only. SQLite gives the -wal and -shm files the database file's mode.
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  }
  const db = new Database(path, { readonly, fileMustExist: readonly });
  db.pragma('busy_timeout = 5000');
  if (readonly) return db;
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  for (const [table, columns] of Object.entries(ADDED_COLUMNS)) addMissingColumns(db, table, columns);
  db.exec(SCHEMA);
  return db;
}

/** Columns added after a table was first created: an existing database gets them on start. */
function addMissingColumns(db: Db, table: string, columns: Record<string, string>): void {
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').all('table', table).length > 0;
  if (!exists) return;
  const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of Object.entries(columns)) {
    if (!have.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
  }
}
