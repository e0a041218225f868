import type { Migration } from './migrate';

export const sqlite: Migration = {
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
};

export const postgres: Migration = {
  version: 4,
  name: 'deliveries by channel, mails counted by limit key',
  statements: [
    // The rules of a submit are decided once, in TypeScript, for both backends (store-rules.ts).
    'DROP FUNCTION portal_store_request',
    `ALTER TABLE outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'mail'`,
    `UPDATE outbox SET channel = 'webhook' WHERE kind = 'webhook'`,
    'ALTER TABLE outbox ADD COLUMN limit_key TEXT',
    `UPDATE outbox SET limit_key = recipient WHERE kind IN ('confirmation', 'dealer')`,
    'DROP INDEX outbox_due_by_channel',
    'CREATE INDEX outbox_due ON outbox(channel, next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL',
    'DROP INDEX outbox_recipient',
    'CREATE INDEX outbox_limit ON outbox(limit_key, queued_at) WHERE limit_key IS NOT NULL',
  ],
};
