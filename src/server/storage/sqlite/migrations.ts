import { DUE_TIMES } from '../due-times';
import { FORM_REVISIONS } from '../form-revisions';
import { GMAIL_LIMIT_KEYS } from '../gmail-limit-keys';
import type { Migration, MigrationPlan } from '../migrate';

/**
 * SQLite's schema history (PostgreSQL's is postgres/migrations.ts, with the
 * same versions). Add a step at the end; never change one that has shipped.
 * Version 1 is the schema as it stood before versions were kept: it only
 * creates what is missing, so a database of that time takes it as it is.
 */
export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'requests, photos and the outbox',
    statements: [
      `CREATE TABLE IF NOT EXISTS photos (
  name        TEXT PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  request_id  INTEGER REFERENCES requests(id),
  -- Who uploaded it and its size, while unclaimed: the storage quotas. Cleared on claim.
  owner       TEXT,
  bytes       INTEGER NOT NULL DEFAULT 0
)`,
      `CREATE INDEX IF NOT EXISTS photos_unclaimed ON photos(created_at) WHERE request_id IS NULL`,
      `CREATE INDEX IF NOT EXISTS photos_unclaimed_owner ON photos(owner) WHERE request_id IS NULL`,
      `CREATE TABLE IF NOT EXISTS requests (
  id               INTEGER PRIMARY KEY,
  reference        TEXT NOT NULL UNIQUE,
  brand            TEXT NOT NULL,
  variant          TEXT NOT NULL,
  locale           TEXT NOT NULL,
  payload          TEXT NOT NULL,
  idempotency_key  TEXT UNIQUE,
  payload_hash     TEXT NOT NULL,
  created_at       INTEGER NOT NULL
)`,
      `CREATE TABLE IF NOT EXISTS outbox (
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
)`,
      `-- The mail sender once took the oldest pending mails by next_attempt_at: that index sorted the
-- whole backlog at every poll (10 ms at 80k mails, stalling the thread that commits).
DROP INDEX IF EXISTS outbox_due`,
      `CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(id) WHERE sent_at IS NULL AND failed_at IS NULL`,
      `-- Retention and erasure find a request's mails and photos, and the oldest requests, without scanning.
CREATE INDEX IF NOT EXISTS outbox_request ON outbox(request_id)`,
      `CREATE INDEX IF NOT EXISTS photos_request ON photos(request_id) WHERE request_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS requests_created ON requests(created_at)`,
      `-- The per-recipient mail limit counts by (recipient, queued_at).
CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox(recipient, queued_at)`,
      `-- Each delivery worker (mail, webhook) reads its own due rows, earliest first: without the
-- channel in the index the webhook worker scanned the whole mail backlog at every look, and
-- ordered by id alone, rows waiting for a retry piled up at the head and were skipped at
-- every look (measured: 17 s of 53 s CPU with 80k mails failing). /metrics counts pending
-- and failed rows by kind without reading the delivered ones.
CREATE INDEX IF NOT EXISTS outbox_due_by_channel ON outbox((kind = 'webhook'), next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL`,
      `CREATE INDEX IF NOT EXISTS outbox_failed ON outbox(kind) WHERE failed_at IS NOT NULL`,
    ],
  },
  { version: 2, name: 'photo bytes stored as they are', statements: [] },
  { version: 3, name: 'a submit stored in one round trip', statements: [] },
  {
    version: 4,
    name: 'deliveries by channel, mails counted by limit key',
    statements: [
      // The worker that sends a row and the key its mail counts under are data, so storage knows no kinds.
      `ALTER TABLE outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'mail'`,
      `UPDATE outbox SET channel = 'webhook' WHERE kind = 'webhook'`,
      `ALTER TABLE outbox ADD COLUMN limit_key TEXT`,
      `UPDATE outbox SET limit_key = recipient WHERE kind IN ('confirmation', 'dealer')`,
      `DROP INDEX IF EXISTS outbox_due_by_channel`,
      `CREATE INDEX outbox_due ON outbox(channel, next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL`,
      `DROP INDEX IF EXISTS outbox_recipient`,
      `CREATE INDEX outbox_limit ON outbox(limit_key, queued_at) WHERE limit_key IS NOT NULL`,
    ],
  },
  GMAIL_LIMIT_KEYS,
  // PostgreSQL's version 6 records where the mail files are; SQLite's are always beside its database, in DATA_DIR.
  { version: 6, name: 'where the mail files are', statements: [] },
  DUE_TIMES,
  FORM_REVISIONS,
  // PostgreSQL's versions 9 and 10 count a mailbox's mails after its turn; SQLite's one writer takes the turns itself.
  { version: 9, name: "a mailbox's mails counted after its turn", statements: [] },
  { version: 10, name: "a mailbox's count planned for its keys", statements: [] },
];

/** SQLite's transaction takes the write lock at BEGIN IMMEDIATE: two instances never share one database file. */
export const SQLITE_PLAN: MigrationPlan = { migrations: SQLITE_MIGRATIONS, lock: async () => {} };
