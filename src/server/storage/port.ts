import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { DatabaseState } from './database-state';
import type { MailCopies } from './mail-copies';
import type { PhotoStore } from './photo-store';
import type { DeliveryUpdate, DueDelivery, FormRevisionRow, NewRequest, OutboxFigures, OutboxRow, PhotoRow, StoredRequest, Undelivered, WriteOutcome } from './records';
import type { Transfer } from './transfer';

/** An item's result in a batch: one item that fails does not fail the others. */
export type Outcome<O> = { ok: true; value: O } | { ok: false; error: { message: string; code?: string } };

export interface WritePolicy {
  /** Mails to one unverified address per 24 hours; more are not queued (the request still is). */
  mailsPerRecipientPerDay: number;
}

/**
 * Stores requests, each with its photos claimed and its deliveries queued; resolves once committed.
 * An item whose reference another request has is not stored: its outcome is `reference-taken`.
 */
export interface RequestWriter {
  write(items: NewRequest[]): Promise<Outcome<WriteOutcome>[]>;
  /** Records delivery attempts where requests are written (with SQLite: off the event loop). */
  recordDeliveries(updates: readonly DeliveryUpdate[], now: number): Promise<void>;
  /** False once nothing can be stored any more (SQLite's writer thread died): readiness reports it. */
  readonly alive: boolean;
  close(): Promise<void>;
}

/** Adds `amount` to the counter `key` in its window of `windowMs`; the count and when the window ends. */
export type Tally = ((key: string, amount: number, windowMs: number, now?: number) => Promise<{ count: number; resetAt: number }>) & {
  /** The same counts as calls of the tally one after the other, in one round trip (a shared store has it). */
  gated?: GatedTally;
};

/** A count of a gated tally: made only if the gate's new count is at most `gateAtMost`. */
export interface GatedCount {
  key: string;
  amount: number;
  windowMs: number;
  gateAtMost: number;
}

/**
 * Adds to the counter `gate`, then to each of `then` that the gate's new count allows (keys of `then`
 * distinct, each sorting after the gate's in UTF-8 byte order, so that a shared store takes its rows'
 * locks in one order); the new counts, undefined for those not counted. Without `now`, at the store's time.
 */
export type GatedTally = (
  gate: { key: string; amount: number; windowMs: number },
  then: readonly GatedCount[],
  now?: number,
) => Promise<{ gate: number; then: (number | undefined)[] }>;

/** Requests, photos and deliveries erased together, with the photos' bytes and the mails' copies. */
export interface ErasedRows {
  requests: number;
  photos: number;
  /** The stored message ids of the outbox rows removed. */
  mails: string[];
  /** Copies of those mails kept for lack of SMTP (MailCopies) that were removed. */
  mailCopies: number;
}

/** Whether erased rows' bytes are gone from the database's files too; if not, why (the rows are gone either way). */
export type Reclaimed = { done: true } | { done: false; reason: string };

/**
 * Where requests, photos and deliveries are kept: the named operations the
 * portal needs, on either backend (sqlite/, postgres/). Nothing outside
 * storage/ writes SQL or asks which database it talks to.
 */
export interface Storage {
  /** For people: `SQLite /srv/data/requests.db`, `PostgreSQL portal@db:5432/portal` (no password). */
  readonly description: string;
  /** Whether the database answers; the log hears of changes once. */
  readonly state: DatabaseState;
  /** Rate-limit counters every instance shares; undefined: the limiter's own, in memory. */
  readonly rateLimitStore: FastifyRateLimitStoreCtor | undefined;
  /** Counters in fixed windows that every instance shares (the mail cap); with SQLite, one instance's own. */
  readonly tally: Tally;
  readonly photos: PhotoStore;
  /** Mails kept instead of sent, without SMTP_URL. */
  readonly mailCopies: MailCopies;
  /** Starts what stores requests (SQLite's writer thread, or PostgreSQL's pool itself). */
  openWriter(policy: WritePolicy): Promise<RequestWriter>;

  /** Keeps these revisions of today's forms (a revision stored already stays as it is). */
  registerFormRevisions(revisions: readonly Omit<FormRevisionRow, 'created_at'>[], now: number): Promise<void>;
  /** The stored revisions of these ids (those there are). */
  formRevisions(ids: readonly string[]): Promise<FormRevisionRow[]>;
  /** Every stored revision's id and form, oldest first, without its definition. */
  formRevisionList(): Promise<Omit<FormRevisionRow, 'definition'>[]>;
  /** Every stored revision, oldest first. */
  allFormRevisions(): Promise<FormRevisionRow[]>;
  /** Requests stored without a revision (before version 8, or by an older release's instance), by id after `afterId`. */
  unrevisedRequests(afterId: number, limit: number): Promise<StoredRequest[]>;
  /** Gives these requests the revision, where they still have none; how many it gave one. */
  adoptFormRevision(revision: string, ids: readonly number[]): Promise<number>;

  /** Rejects when the database does not answer. */
  ping(): Promise<void>;
  /** The request stored under an Idempotency-Key for the brand. */
  requestByKey(key: string, brand: string): Promise<StoredRequest | undefined>;
  requestByReference(reference: string): Promise<StoredRequest | undefined>;
  /** Requests by id, after `afterId`, at most `limit` (the export pages through them). */
  requestsAfter(afterId: number, limit: number): Promise<StoredRequest[]>;

  /** Up to `limit` due deliveries of a channel, the longest due first, none of `busy`; leased to this instance. */
  leaseDue(channel: string, limit: number, busy: ReadonlySet<number>, now: number): Promise<DueDelivery[]>;
  /** Deliveries not sent: pending and failed for good, by destination. */
  undelivered(): Promise<Undelivered[]>;
  /** Queues a request's deliveries of `kinds`, and any of its that failed for good, again; undefined: no such request. */
  requeue(reference: string, kinds: readonly string[], now: number): Promise<number | undefined>;
  /** Queues every delivery that failed for good (at or after `since`, when given) again; how many. */
  requeueFailed(since: number | undefined, now: number): Promise<number>;
  outboxFigures(): Promise<OutboxFigures>;
  /** Deliveries queued since `since`, and deliveries sent since then (the bench's report). */
  deliveriesSince(since: number): Promise<{ queued: number; sent: number }>;

  /** Requests created before `cutoff` whose deliveries all ended before it. */
  expiredRequests(cutoff: number, limit: number): Promise<number[]>;
  eraseRequests(ids: readonly number[]): Promise<ErasedRows>;
  /** Removes these deliveries with their copies; how many of each. */
  eraseMails(mails: readonly Pick<OutboxRow, 'id' | 'message_id'>[]): Promise<{ mails: number; mailCopies: number }>;
  /**
   * The folders servers of an earlier release recorded as holding their .eml files (PostgreSQL, before
   * mails were kept in the database); each is forgotten once its server moved them into the database.
   */
  earlierMailFolders(): Promise<string[]>;
  /** Forgets such a folder (its server retired for good); false when none was recorded so. */
  forgetMailFolder(folder: string): Promise<boolean>;
  /** Whether the delivery is still stored with this subject and text (not erased, nor rewritten by an erasure). */
  deliveryHolds(id: number, subject: string, body: string): Promise<boolean>;
  /** The photos of these requests, by name. */
  photosOfRequests(ids: readonly number[]): Promise<PhotoRow[]>;
  /** The deliveries of these requests, by id. */
  deliveriesOf(ids: readonly number[]): Promise<OutboxRow[]>;
  /** The mails counted under a limit key (the mailbox an unverified mail went to), by id. */
  mailsByLimitKey(key: string): Promise<OutboxRow[]>;
  /** Replaces a stored request's JSON (erasure takes a dealer's address out of another person's request); false when it is gone. */
  rewriteRequest(id: number, payload: string): Promise<boolean>;
  /**
   * Replaces a delivery's subject and text (erasure takes an address out of what was sent), and removes
   * its copy (what it said is no longer so); how many copies it removed.
   */
  rewriteMail(mail: Pick<OutboxRow, 'id' | 'message_id'>, subject: string, body: string): Promise<number>;
  /**
   * Leaves no copy of what was erased in the database's files: SQLite zeroes deleted content as it goes
   * (secure_delete) and here empties its write-ahead log; PostgreSQL rewrites the tables. A reader or a
   * backup holding them longer than it waits leaves that for later: `done: false`, the rows gone all the same.
   */
  reclaim(): Promise<Reclaimed>;

  /** Moving everything to another storage (npm run requests -- migrate-to-postgres). */
  readonly transfer: Transfer;
  close(): Promise<void>;
}
