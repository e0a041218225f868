import type { Generated } from 'kysely';

/**
 * The tables as both backends hold them (migrations in sqlite/ and postgres/
 * make them). Times are milliseconds since 1970; ids are whole numbers.
 */
export interface PortalDatabase {
  requests: RequestsTable;
  photos: PhotosTable;
  outbox: OutboxTable;
  schema_migrations: SchemaMigrationsTable;
  portal_settings: PortalSettingsTable;
  form_revisions: FormRevisionsTable;
}

/** The forms requests were sent with, once per distinct content (core/form-revision.ts). */
export interface FormRevisionsTable {
  /** A hash of the definition (revisions/form-revisions.ts): the same content has the same id on every instance. */
  id: string;
  /** The form's name, under the column's first name, as in requests. */
  variant: string;
  /** The revision as JSON: schema, uiSchema and the texts about its fields. */
  definition: string;
  created_at: number;
}

/** Facts of the running servers that staff commands elsewhere need (the mail files' folder). */
export interface PortalSettingsTable {
  name: string;
  value: string;
}

export interface RequestsTable {
  id: Generated<number>;
  reference: string;
  brand: string;
  /** The name of its form; the column keeps its first name, "variant" (docs/architecture.md, "One word"). */
  variant: string;
  locale: string;
  /** The request as JSON. */
  payload: string;
  idempotency_key: string | null;
  payload_hash: string;
  created_at: number;
  /**
   * The form revision it was checked against; every later reader takes its fields, roles and photos
   * from there. Null only for rows stored before version 8 of a variant no form file had when a
   * server of that version started (each start gives the others their form of the day).
   */
  form_revision: string | null;
}

export interface PhotosTable {
  name: string;
  created_at: number;
  request_id: number | null;
  /** Who uploaded it, while unclaimed (the storage quotas); cleared on claim. */
  owner: string | null;
  bytes: number;
}

export interface OutboxTable {
  id: Generated<number>;
  request_id: number;
  kind: string;
  /** The worker that sends it (mail, webhook). */
  channel: string;
  recipient: string;
  /** The key a mail counts under for the per-recipient limit; null: not counted. */
  limit_key: string | null;
  subject: string;
  body: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  message_id: string | null;
  queued_at: number | null;
  /**
   * When it first became due: queued, or the hour the mail cap held it for. Null: sent or given up on
   * before version 7, or queued by an instance of an older release still running during an upgrade.
   */
  due_at: number | null;
  /** The language its text is in (the desk's or the customer's); null: queued before version 8. */
  language: string | null;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}
