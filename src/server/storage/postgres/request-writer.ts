import { plainError } from '../group-commit';
import type { Outcome, RequestWriter, WritePolicy } from '../port';
import { recordDeliveries } from '../queries/outbox';
import type { Db } from '../queries/requests';
import type { DeliveryUpdate, NewRequest, SubmitOutcome, WriteOutcome } from '../records';
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

/** The function's error when a photo the request names is gone or another request's (migration 13). */
const PHOTO_TAKEN = 'RP409';

/** A stored request's outcome, and the mailboxes it left full (or found full) until when. */
interface Stored {
  outcome: SubmitOutcome;
  filled: { key: string; until: number }[];
}

/**
 * PostgreSQL's request writer: each request one call of portal_store_request
 * on the pool (one round trip, its own transaction), by the rules of store-rules.ts, so several
 * instances store side by side. The database settles the races between them:
 * the unique Idempotency-Key makes a second insert of the same key wait for the
 * first and then do nothing (the earlier request is then read, committed), and
 * a request's photos are claimed only where still unclaimed, the second of two
 * requests naming one waiting for the first's commit: when one was not, the
 * statement fails and nothing of the request is stored.
 */
export class PostgresRequestWriter implements RequestWriter {
  readonly alive = true;

  constructor(
    private readonly sql: PostgresSql,
    private readonly db: Db,
    private readonly policy: WritePolicy,
  ) {}

  write(items: NewRequest[]): Promise<Outcome<WriteOutcome>[]> {
    return Promise.all(
      items.map((item) =>
        this.store(item).then(
          (value): Outcome<WriteOutcome> => ({ ok: true, value }),
          (error: unknown): Outcome<WriteOutcome> => ({ ok: false, error: plainError(error) }),
        ),
      ),
    );
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

  private async store(s: NewRequest): Promise<WriteOutcome> {
    const now = Date.now();
    const full = new Set(limitKeys(s.deliveries).filter((key) => (this.fullUntil.get(key) ?? 0) > now));
    const counted = limitKeys(s.deliveries).filter((key) => !full.has(key));
    let stored: Stored | undefined;
    try {
      stored = await this.waitingOutRewrite(() => this.insert(s, now, counted, full));
    } catch (error) {
      // Nothing was stored: the caller tries again under a new reference.
      if (referenceTaken(error)) return { kind: 'reference-taken' };
      if ((error as { code?: unknown }).code === PHOTO_TAKEN) return this.photosUnavailable(s);
      throw error;
    }
    if (stored) {
      for (const { key, until } of stored.filled) this.remember(key, until, now);
      return stored.outcome;
    }
    // Its key was stored before: that request's answer, unless it has been erased since.
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
   * promises; nothing was stored by the one that failed. Another holder's lock is refused as before (503),
   * and told.
   */
  private async waitingOutRewrite<T>(statement: () => Promise<T>): Promise<T> {
    const until = Date.now() + REWRITE_WAIT_MS;
    for (;;) {
      try {
        return await statement();
      } catch (error) {
        const busy = isStoreUnavailable(error) && unavailability(error) === 'busy';
        if (busy && Date.now() < until && (await this.rewriting())) continue;
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

  /**
   * The request, its photos claimed and its deliveries queued, in one statement (migration 13's function);
   * undefined when its key was stored before. A photo not unclaimed fails it with PHOTO_TAKEN, nothing stored.
   */
  private async insert(s: NewRequest, now: number, counted: readonly string[], full: ReadonlySet<string>): Promise<Stored | undefined> {
    const limit = this.policy.mailsPerRecipientPerDay;
    // Mail to a mailbox known to be full is dropped here; the others' are counted and queued by the function.
    const deliveries = s.deliveries.filter((d) => d.limitKey === undefined || !full.has(d.limitKey));
    // Requests to one mailbox with room take turns from the count to their commit (in one order): two counted at
    // once would both find room for one more mail. A mailbox known to be full takes no turn: its count only falls
    // when its mails age (its time is kept) or are erased, so no mail past the limit is ever queued. A delivery
    // past the limit is not queued (store-rules.ts: withinMailLimit, the same rule on the same places).
    const places = placesUnderLimit(deliveries);
    const queued = deliveries.map((d, i) => ({
      rank: places[i], kind: d.kind, channel: d.channel, recipient: d.to, limit_key: d.limitKey ?? null, subject: d.subject, body: d.text,
      next_attempt_at: firstAttempt(d, now), message_id: d.messageId, language: d.language,
    }));
    const [{ stored_id: id, sent_counts: sent }] = await this.sql.allWaiting<{ stored_id: number | null; sent_counts: Record<string, [n: number, oldest: number]> | null }>(
      'SELECT stored_id, sent_counts FROM portal_store_request(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now, s.formRevision,
        s.photos.map((p) => p.name), counted, now - DAY_MS, JSON.stringify(queued), limit, MAIL_LIMIT_LOCKS,
      ],
    );
    if (id === null) return undefined;
    // Mailboxes this request filled (or found full) are full until their oldest counted mail is a day old.
    const filled = counted.flatMap((key) => {
      const [n, oldest] = sent?.[key] ?? [0, now];
      const wanted = deliveries.filter((d) => d.limitKey === key).length;
      return n + wanted >= limit ? [{ key, until: oldest + DAY_MS }] : [];
    });
    return { outcome: { kind: 'stored', reference: s.reference, replay: false }, filled };
  }
}
