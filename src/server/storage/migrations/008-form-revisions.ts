import type { Migration } from './migrate';

/**
 * Version 8 on both backends, the same SQL: each request keeps the revision of the form it was sent
 * with, stored once per distinct content, so every later reader (show, erase, export, redeliver, a
 * replay, the confirmation) reads it as it was sent. Rows of before get, when a server of this
 * version starts, a stored revision of their variant that they fit (revisions/form-revisions.ts);
 * the partial index finds them without reading the rest. Each delivery keeps the language it was written in.
 */
const FORM_REVISIONS: Migration = {
  version: 8,
  name: 'the form each request was sent with',
  statements: [
    `CREATE TABLE form_revisions (
  id          TEXT PRIMARY KEY,
  variant     TEXT NOT NULL,
  definition  TEXT NOT NULL,
  created_at  BIGINT NOT NULL
)`,
    'ALTER TABLE requests ADD COLUMN form_revision TEXT',
    'CREATE INDEX requests_unrevised ON requests(variant) WHERE form_revision IS NULL',
    // The language a delivery was written in: its attachments' names and Content-Language stay those of its text
    // when the brand's desk language changes before it is sent or redelivered. Null: queued before version 8.
    'ALTER TABLE outbox ADD COLUMN language TEXT',
  ],
};

export const sqlite = FORM_REVISIONS;
export const postgres = FORM_REVISIONS;
