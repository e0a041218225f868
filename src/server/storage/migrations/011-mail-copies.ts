import type { Migration } from './migrate';

// PostgreSQL's version 11 keeps mails in the database; SQLite's stay files in DATA_DIR, beside its database.
export const sqlite: Migration = { version: 11, name: 'mails kept in the database', statements: [] };

export const postgres: Migration = {
  version: 11,
  name: 'mails kept in the database',
  statements: [
    // Without SMTP a mail is kept as it would have gone out: here, not in a folder of the instance that wrote it,
    // so that erasure run anywhere reaches every copy, and a copy goes with its row (erased, expired) by itself.
    `CREATE TABLE mail_copies (
outbox_id   BIGINT PRIMARY KEY REFERENCES outbox(id) ON DELETE CASCADE,
message_id  TEXT NOT NULL,
written_at  BIGINT NOT NULL,
eml         BYTEA NOT NULL
)`,
    'CREATE INDEX mail_copies_message ON mail_copies(message_id)',
  ],
};
