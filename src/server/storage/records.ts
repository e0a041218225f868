import type { Selectable } from 'kysely';
import type { FormRevisionsTable, OutboxTable, PhotosTable, RequestsTable } from './schema';

/** Plain data that crosses the storage port (and SQLite's thread boundary). Times are ms since 1970. */

/** A delivery to queue with its request, in the same transaction; composed above storage (delivery/). */
export interface QueuedDelivery {
  kind: string;
  /** The worker that sends it: `mail` or `webhook`. */
  channel: string;
  /** Mail: the address(es), comma-separated; webhook: its URL. */
  to: string;
  subject: string;
  /** Mail: the plain text; webhook: the event as JSON, photo links added when sent. */
  text: string;
  /** Counted against the per-recipient limit under this key (an address the portal has not verified); undefined: not counted. */
  limitKey?: string;
  /** The mail's Message-ID (left of the @) and the webhook's id: one per delivery, the same on every attempt. */
  messageId: string;
  /** Not sent before this time (a mail held back by the brand's mail cap); undefined: at once. */
  notBefore?: number;
  /** The language its text is written in: its attachments are named and its Content-Language set in it when sent. */
  language: string;
}

/** A validated request, ready to store. */
export interface NewRequest {
  brand: string;
  variant: string;
  locale: string;
  /** The request as JSON. */
  payload: string;
  /** The revision of the form it was checked against (FormRevisions). */
  formRevision: string;
  /** The stored names of its photos, each with the request field it fills (form order). */
  photos: NewPhoto[];
  idempotencyKey?: string;
  /** Used if the request is stored, not if the key replays an earlier one; another request's makes the outcome `reference-taken`. */
  reference: string;
  deliveries: QueuedDelivery[];
}

/** A photo a request claims: its stored name, and the request field that names it. */
export interface NewPhoto {
  field: string;
  name: string;
}

export type SubmitOutcome =
  | { kind: 'stored'; reference: string; replay: boolean }
  /** The fields whose photos are not stored here, or already used by another request. */
  | { kind: 'photos-unavailable'; fields: string[] }
  /** The key was used before with a different request. */
  | { kind: 'key-conflict' };

/**
 * What the writer answers for an item: a submit's outcome, or nothing stored
 * because another request has its reference already (the caller retries
 * with a new reference; intake/request-store.ts).
 */
export type WriteOutcome = SubmitOutcome | { kind: 'reference-taken' };

export type StoredRequest = Selectable<RequestsTable>;

/** An outbox row as stored: one delivery of a request. */
export type OutboxRow = Selectable<OutboxTable>;

/** A row's message id: rows queued before they kept one have the one derived from their id, as sent then. */
export const messageIdOf = (row: Pick<OutboxRow, 'id' | 'message_id'>): string => row.message_id ?? `outbox-${row.id}`;

/** A queued delivery that is due, with the request it carries. */
export interface DueDelivery {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  /** When it was queued (or queued again by redeliver): it is retried until DELIVERY_GIVE_UP_HOURS after. */
  queuedAt: number;
  /** Stable over every retry: the mail's Message-ID and the webhook-id. */
  messageId: string;
  reference: string;
  brand: string;
  /** The request's language (nl, fr, …): its customer's mails are written in it. */
  locale: string;
  /** The form variant it was sent with: which of its fields are photos, e-mail addresses, dates. */
  variant: string;
  /** The stored request as JSON. */
  payload: string;
  /** The revision of the form it was sent with: its fields, roles and photos as they were. */
  formRevision: string | null;
  /** The language its text was written in; null: queued before version 8 (the desk's of today, or the request's). */
  language: string | null;
}

/** What an attempt changes in its row: delivered, or the next try (and whether that ends the retries). */
export type DeliveryUpdate =
  | { id: number; delivered: true }
  | { id: number; delivered: false; attempts: number; nextAttemptAt: number; lastError: string; failedForGood: boolean };

/** A delivery not sent, for the staff's listing. */
export interface Undelivered {
  brand: string;
  kind: string;
  recipient: string;
  reference: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number;
  failedAt: number | null;
}

/** The outbox at a glance (/metrics). */
export interface OutboxFigures {
  pendingByKind: Record<string, number>;
  failedByKind: Record<string, number>;
  /** When the oldest pending delivery was queued; null when none is pending. */
  oldestPendingAt: number | null;
}

export type PhotoRow = Selectable<PhotosTable>;

/** A form revision as stored: its id, variant and definition (core's FormRevision as JSON). */
export type FormRevisionRow = Selectable<FormRevisionsTable>;
