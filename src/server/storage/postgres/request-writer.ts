import { plainError } from '../group-commit';
import type { Outcome, RequestWriter, WritePolicy } from '../port';
import { recordDeliveries } from '../queries/outbox';
import type { Db } from '../queries/requests';
import type { DeliveryUpdate, NewRequest, WriteOutcome } from '../records';
import { DAY_MS, firstAttempt, limitKeys, payloadHash, placesUnderLimit, replayOf, unavailablePhotos } from '../store-rules';
import { isStoreUnavailable, unavailability } from '../store-unavailable';
import type { PostgresSql } from './postgres-sql';
import { REWRITE_LOCK } from './reclaim';

/**
 * How long a submit waits out an erasure's rewrite of the tables (VACUUM FULL: seconds for a large store)
 * before it is refused after all: as long as a client waits for an answer, well within the request timeout.
 */
const REWRITE_WAIT_MS = 60_000;

/** Seeds the hash of a mailbox into an advisory lock of the mail limit's own (the migration lock is another number; mail-limit-turns.test.ts takes one). */
const MAIL_LIMIT_LOCKS = 7_316_403;

/** PostgreSQL's answer to an insert whose reference another request has (a unique violation of requests.reference). */
function referenceTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'requests_reference_key';
}

/**
 * Whether the database chose this call as a deadlock's victim: its transaction was rolled back, nothing of it
 * stored. A batch holds the rows of all its requests until its commit, so a request alone that waits for one
 * of them while holding a row the batch waits for (a photo, an Idempotency-Key two customers' clients share)
 * closes a ring, and PostgreSQL breaks it by failing one of the two.
 */
function deadlocked(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } }).cause?.code === '40P01';
}

/** The function's error when a photo the request names is gone or another request's (migration 13). */
const PHOTO_TAKEN = 'RP409';

/** What portal_store_requests answers of each request: its id (none when its key was stored before), and its mailboxes' mails of the day. */
interface Answer {
  stored_id: number | null;
  sent_counts: Record<string, [n: number, oldest: number]> | null;
}

/** A request as the database is asked to store it. */
interface Call {
  /** Its mailboxes with room: each counted, in its turn. */
  counted: string[];
  /** Its deliveries but those to a mailbox known to be full. */
  deliveries: NewRequest['deliveries'];
  /** Those deliveries as the function takes them, each with its place under its mailbox's limit. */
  queued: Record<string, unknown>[];
}

/** The most requests stored in one call: a batch holds its mailboxes' turns, and its rows' locks, until its commit. */
const MOST_IN_ONE_CALL = 32;

/** A write's outcome as the store hands it back: its value, or its error as data. */
function outcomeOf(write: Promise<WriteOutcome>): Promise<Outcome<WriteOutcome>> {
  return write.then(
    (value): Outcome<WriteOutcome> => ({ ok: true, value }),
    (error: unknown): Outcome<WriteOutcome> => ({ ok: false, error: plainError(error) }),
  );
}

/**
 * PostgreSQL's request writer: the requests of one turn one call of portal_store_requests on the pool
 * (one round trip, one transaction; a request alone is a call of one), by the rules of store-rules.ts, so
 * several instances store side by side. The database settles the races between them: the unique
 * Idempotency-Key makes a second insert of the same key wait for the first and then do nothing (the
 * earlier request is then read, committed), and a request's photos are claimed only where still unclaimed,
 * the second of two requests naming one waiting for the first's commit: when one was not, the statement
 * fails and nothing of the request is stored.
 */
export class PostgresRequestWriter implements RequestWriter {
  readonly alive = true;

  constructor(
    private readonly sql: PostgresSql,
    private readonly db: Db,
    private readonly policy: WritePolicy,
  ) {}

  write(items: NewRequest[]): Promise<Outcome<WriteOutcome>[]> {
    if (items.length === 1) return Promise.all(items.map((item) => outcomeOf(this.store(item))));
    const batches = Array.from({ length: Math.ceil(items.length / MOST_IN_ONE_CALL) }, (_, b) => items.slice(b * MOST_IN_ONE_CALL, (b + 1) * MOST_IN_ONE_CALL));
    return Promise.all(batches.map((batch) => this.storeTogether(batch))).then((outcomes) => outcomes.flat());
  }

  recordDeliveries(updates: readonly DeliveryUpdate[], now: number): Promise<void> {
    return recordDeliveries(this.db, updates, now);
  }

  async close(): Promise<void> {}

  /** Mailboxes known to hold their day's mails, each until its oldest counted mail is a day old. */
  private readonly fullUntil = new Map<string, number>();

  private remember(key: string, until: number, now: number): void {
    this.fullUntil.set(key, until);
    // Mailboxes whose time is over are of no use: the map stays as small as the mailboxes full today.
    if (this.fullUntil.size > 10_000) for (const [k, t] of this.fullUntil) if (t <= now) this.fullUntil.delete(k);
  }

  /** A request alone: a call of its own, sent again while an erasure rewrites the tables or when a deadlock failed it. */
  private async store(s: NewRequest): Promise<WriteOutcome> {
    const now = Date.now();
    const call = this.callOf(s, now);
    let answer: Answer;
    try {
      [answer] = await this.waitingOutRewrite(() => this.storeCall([s], [call], now));
    } catch (error) {
      // Nothing was stored: the caller tries again under a new reference.
      if (referenceTaken(error)) return { kind: 'reference-taken' };
      if ((error as { code?: unknown }).code === PHOTO_TAKEN) return this.photosUnavailable(s);
      throw error;
    }
    return this.answered(s, call, answer, now);
  }

  /**
   * The requests of one turn in one call: one transaction, one commit and one round trip for all, each stored
   * by the same rules as alone. When the call fails, nothing of it is stored: a store that is unavailable
   * refuses each request as it would refuse one; any other failure (one request's photo taken, a reference
   * drawn twice, a lock held by an erasure's rewrite) is one request's, and each is stored alone, so that its
   * refusal is its own.
   */
  private async storeTogether(items: NewRequest[]): Promise<Outcome<WriteOutcome>[]> {
    const now = Date.now();
    const calls = items.map((s) => this.callOf(s, now));
    let answers: Answer[];
    try {
      answers = await this.storeCall(items, calls, now);
    } catch (error) {
      if (isStoreUnavailable(error) && unavailability(error) !== 'busy') return items.map(() => ({ ok: false, error: plainError(error) }));
      const alone: Outcome<WriteOutcome>[] = [];
      // One after the other, in their order, as the batch would have stored them.
      for (const item of items) alone.push(await outcomeOf(this.store(item)));
      return alone;
    }
    return Promise.all(answers.map((answer, i) => outcomeOf(this.answered(items[i], calls[i], answer, now))));
  }

  /** One call of portal_store_requests (migration 14): a row for each request, in their order. */
  private storeCall(items: NewRequest[], calls: Call[], now: number): Promise<Answer[]> {
    return this.sql.allWaiting<Answer>('SELECT stored_id, sent_counts FROM portal_store_requests(?, ?, ?, ?, ?)', [
      JSON.stringify(
        items.map((s, i) => ({
          reference: s.reference, brand: s.brand, variant: s.variant, locale: s.locale, payload: s.payload, idempotency_key: s.idempotencyKey ?? null,
          payload_hash: payloadHash(s), form_revision: s.formRevision, names: s.photos.map((p) => p.name), counted: calls[i].counted, deliveries: calls[i].queued,
        })),
      ),
      now, now - DAY_MS, this.policy.mailsPerRecipientPerDay, MAIL_LIMIT_LOCKS,
    ]);
  }

  /**
   * A request's mailboxes to count and deliveries to queue: mail to a mailbox known to be full is dropped here;
   * the others' are counted and queued in the database. Requests to one mailbox with room take turns from the
   * count to their commit (in one order): two counted at once would both find room for one more mail. A mailbox
   * known to be full takes no turn: its count only falls when its mails age (its time is kept) or are erased, so
   * no mail past the limit is ever queued. A delivery past the limit is not queued (store-rules.ts:
   * withinMailLimit, the same rule on the same places).
   */
  private callOf(s: NewRequest, now: number): Call {
    const full = new Set(limitKeys(s.deliveries).filter((key) => (this.fullUntil.get(key) ?? 0) > now));
    const counted = limitKeys(s.deliveries).filter((key) => !full.has(key));
    const deliveries = s.deliveries.filter((d) => d.limitKey === undefined || !full.has(d.limitKey));
    const places = placesUnderLimit(deliveries);
    const queued = deliveries.map((d, i) => ({
      rank: places[i], kind: d.kind, channel: d.channel, recipient: d.to, limit_key: d.limitKey ?? null, subject: d.subject, body: d.text,
      next_attempt_at: firstAttempt(d, now), message_id: d.messageId, language: d.language,
    }));
    return { counted, deliveries, queued };
  }

  /**
   * A request's outcome from the database's answer: stored, with the mailboxes it filled (or found full) kept
   * full until their oldest counted mail is a day old; or, when its key was stored before, that request's
   * answer, unless it has been erased since.
   */
  private async answered(s: NewRequest, call: Call, { stored_id: id, sent_counts: sent }: Answer, now: number): Promise<WriteOutcome> {
    if (id !== null) {
      const limit = this.policy.mailsPerRecipientPerDay;
      for (const key of call.counted) {
        const [n, oldest] = sent?.[key] ?? [0, now];
        const wanted = call.deliveries.filter((d) => d.limitKey === key).length;
        if (n + wanted >= limit) this.remember(key, oldest + DAY_MS, now);
      }
      return { kind: 'stored', reference: s.reference, replay: false };
    }
    const [earlier] = await this.sql.all<{ reference: string; payload_hash: string }>(
      'SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?',
      [s.idempotencyKey ?? null],
    );
    return earlier ? replayOf(s, earlier) : this.photosUnavailable(s);
  }

  /** The request's fields whose photos are gone or another request's. */
  private async photosUnavailable(s: NewRequest): Promise<WriteOutcome> {
    const free = await this.sql.all<{ name: string }>('SELECT name FROM photos WHERE name = ANY (?) AND request_id IS NULL', [s.photos.map((p) => p.name)]);
    return { kind: 'photos-unavailable', fields: unavailablePhotos(s, new Set(free.map((p) => p.name))) };
  }

  /**
   * Runs a submit's statement; one that met a table lock while an erasure rewrites the tables (REWRITE_LOCK
   * held: its VACUUM FULL holds them for seconds) is sent again until the rewrite is over, as the README
   * promises, and so is a deadlock's victim; nothing was stored by the one that failed. Another holder's lock
   * is refused as before (503), and told.
   */
  private async waitingOutRewrite<T>(statement: () => Promise<T>): Promise<T> {
    const until = Date.now() + REWRITE_WAIT_MS;
    for (;;) {
      try {
        return await statement();
      } catch (error) {
        const busy = isStoreUnavailable(error) && unavailability(error) === 'busy';
        if (busy && Date.now() < until && (deadlocked(error) || (await this.rewriting()))) continue;
        if (busy) this.sql.tell(error as Error);
        throw error;
      }
    }
  }

  /** Whether an erasure holds REWRITE_LOCK (reclaim.ts) now. */
  private async rewriting(): Promise<boolean> {
    const rows = await this.sql.all<{ held: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = ?::int::oid AND objid = ?::int::oid AND objsubid = 2 AND granted) AS held",
      REWRITE_LOCK,
    );
    return rows[0]?.held === true;
  }
}
