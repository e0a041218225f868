import { plainError } from '../group-commit';
import type { Outcome, RequestWriter, WritePolicy } from '../port';
import { recordDeliveries } from '../queries/outbox';
import type { Db } from '../queries/requests';
import type { DeliveryUpdate, NewRequest, SubmitOutcome, WriteOutcome } from '../records';
import { DAY_MS, firstAttempt, limitKeys, payloadHash, replayOf, unavailablePhotos } from '../store-rules';
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

/** A stored request's outcome, and the mailboxes it left full (or found full) until when. */
interface Stored {
  outcome: SubmitOutcome;
  filled: { key: string; until: number }[];
}

/**
 * PostgreSQL's request writer: each request one statement on the pool (one
 * round trip, its own transaction), by the rules of store-rules.ts, so several
 * instances store side by side. The database settles the races between them:
 * the unique Idempotency-Key makes a second insert of the same key wait for the
 * first and then do nothing (the earlier request is then read, committed), and
 * a request's photos are locked before it is inserted, which it only is when
 * every one is still unclaimed, so of two requests naming one, one gets it and
 * the other stores nothing.
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
    let stored: Stored | { free: string[] };
    try {
      stored = await this.waitingOutRewrite(() => this.insert(s, now, counted, full));
    } catch (error) {
      // Nothing was stored: the caller tries again under a new reference.
      if (referenceTaken(error)) return { kind: 'reference-taken' };
      throw error;
    }
    if ('outcome' in stored) {
      for (const { key, until } of stored.filled) this.remember(key, until, now);
      return stored.outcome;
    }
    const [earlier] = await this.sql.all<{ reference: string; payload_hash: string }>(
      'SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?',
      [s.idempotencyKey ?? null],
    );
    if (earlier) return replayOf(s, earlier);
    return { kind: 'photos-unavailable', fields: unavailablePhotos(s, new Set(stored.free)) };
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
   * The request, its photos claimed and its deliveries queued, in one statement; otherwise the photos it found
   * unclaimed (its key was stored before, or a photo is another request's).
   */
  private async insert(s: NewRequest, now: number, counted: readonly string[], full: ReadonlySet<string>): Promise<Stored | { free: string[] }> {
    const limit = this.policy.mailsPerRecipientPerDay;
    // Mail to a mailbox known to be full is dropped here; the others' are counted and queued in the statement.
    const deliveries = s.deliveries.filter((d) => d.limitKey === undefined || !full.has(d.limitKey));
    // Requests to one mailbox with room take turns from the count to their commit (portal_mails_after_turns, in
    // one order): two counted at once would both find room for one more mail. A mailbox known to be full takes
    // no turn: its count only falls when its mails age (its time is kept) or are erased, so no mail past the
    // limit is ever queued. Deliveries past the limit are not queued (store-rules.ts: withinMailLimit, the same rule).
    // The photos are locked first and the request inserted only when each was unclaimed (a name twice counts once,
    // so it fails): nothing is stored otherwise, with no transaction to roll back. Each photo is looked up and
    // locked by its name alone, and only then asked whether it is unclaimed: with `request_id IS NULL` beside the
    // name, the plan PostgreSQL keeps (pool.ts) read the whole index of unclaimed photos instead (2 ms a submit
    // with 80,000 of them, and growing). The names are parameters of their own, one each, as many as the form
    // has photos (a statement per number of photos): joined from a JSON list, which the kept plan takes for 100
    // names, they were matched by reading every photo; as an array (`= ANY`), taken for 10, the plan kept cost
    // more than one made for two names, so PostgreSQL planned every submit again once photos were many.
    const names = s.photos.map((p) => p.name);
    const params = [
      s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now, s.formRevision, names.length,
      JSON.stringify(counted), now - DAY_MS,
      JSON.stringify(
        deliveries.map((d, nth) => ({ nth, kind: d.kind, channel: d.channel, recipient: d.to, limit_key: d.limitKey ?? null, subject: d.subject, body: d.text, next_attempt_at: firstAttempt(d, now), message_id: d.messageId, language: d.language })),
      ),
      limit, MAIL_LIMIT_LOCKS,
    ];
    // The names are numbered after the other parameters.
    const named = names.length === 0 ? 'false' : `p.name IN (${names.map((_, i) => `$${params.length + 1 + i}`).join(', ')})`;
    const [{ id, free, sent }] = await this.sql.allWaiting<{ id: number | null; free: string[]; sent: { limit_key: string; n: number; oldest: number }[] | null }>(
      `WITH named AS (
         SELECT p.name, p.request_id FROM photos p WHERE ${named} FOR UPDATE
       ), free AS (
         SELECT name FROM named WHERE request_id IS NULL
       ), r AS (
         INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE (SELECT count(DISTINCT name) FROM free) = $10
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
       ), c AS (
         UPDATE photos p SET request_id = r.id, owner = NULL FROM r, free WHERE p.name = free.name
       ), sent AS (
         SELECT * FROM portal_mails_after_turns(ARRAY(SELECT json_array_elements_text($11::json)), $15, $12)
       ), d AS (
         SELECT d.*, row_number() OVER (PARTITION BY d.limit_key ORDER BY d.nth) AS rank
         FROM json_to_recordset($13::json)
           AS d(nth int, kind text, channel text, recipient text, limit_key text, subject text, body text, next_attempt_at bigint, message_id text, language text)
       ), q AS (
         INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, next_attempt_at, due_at, queued_at, message_id, language)
         SELECT r.id, d.kind, d.channel, d.recipient, d.limit_key, d.subject, d.body, d.next_attempt_at, d.next_attempt_at, $8, d.message_id, d.language
         FROM r CROSS JOIN d LEFT JOIN sent ON sent.limit_key = d.limit_key
         WHERE d.limit_key IS NULL OR coalesce(sent.n, 0) + d.rank <= $14
         ORDER BY d.nth
       )
       SELECT (SELECT id FROM r) AS id, ARRAY(SELECT name FROM free) AS free, (SELECT json_agg(sent) FROM sent) AS sent`,
      [...params, ...names],
    );
    if (id === null) return { free };
    // Mailboxes this request filled (or found full) are full until their oldest counted mail is a day old.
    const before = new Map((sent ?? []).map((c) => [c.limit_key, c]));
    const filled = counted.flatMap((key) => {
      const wanted = deliveries.filter((d) => d.limitKey === key).length;
      const { n = 0, oldest = now } = before.get(key) ?? {};
      return n + wanted >= limit ? [{ key, until: oldest + DAY_MS }] : [];
    });
    return { outcome: { kind: 'stored', reference: s.reference, replay: false }, filled };
  }
}
