import { plainError } from '../group-commit';
import type { Outcome, RequestWriter, WritePolicy } from '../port';
import { recordDeliveries } from '../queries/outbox';
import type { Db } from '../queries/requests';
import type { DeliveryUpdate, NewRequest, SubmitOutcome, WriteOutcome } from '../records';
import { DAY_MS, firstAttempt, limitKeys, payloadHash, photoNames, replayOf, unavailablePhotos, withinMailLimit } from '../store-rules';
import type { PostgresSql } from './postgres-sql';

/** Seeds the hash of a mailbox into an advisory lock of the mail limit's own (the migration lock is another number). */
const MAIL_LIMIT_LOCKS = 7_316_403;

/** PostgreSQL's answer to an insert whose reference another request has (a unique violation of requests.reference). */
function referenceTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'requests_reference_key';
}

/** Thrown inside the transaction to roll it back and answer with its outcome (a photo another request claimed). */
class Undo extends Error {
  constructor(readonly outcome: SubmitOutcome) {
    super('submit undone');
  }
}

/**
 * PostgreSQL's request writer: each request in a transaction of its own on
 * the pool, by the rules of store-rules.ts, so several instances store side
 * by side. The database settles the races between them: the unique
 * Idempotency-Key makes a second insert of the same key wait for the first and
 * then do nothing (the earlier request is then read, committed), and a photo
 * is claimed by an UPDATE that only takes unclaimed rows, so of two requests
 * naming it, one gets it and the other's transaction is rolled back.
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

  private async store(s: NewRequest): Promise<WriteOutcome> {
    let stored: SubmitOutcome | undefined;
    try {
      stored = await this.sql.transaction((tx) => this.insert(tx, s));
    } catch (error) {
      if (error instanceof Undo) return error.outcome;
      // Rolled back: the caller tries again under a new reference.
      if (referenceTaken(error)) return { kind: 'reference-taken' };
      throw error;
    }
    if (stored) return stored;
    const [earlier] = await this.sql.all<{ reference: string; payload_hash: string }>(
      'SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?',
      [s.idempotencyKey ?? null],
    );
    return replayOf(s, earlier);
  }

  /** The request, its photos claimed and its deliveries queued; undefined when its key was stored before. */
  private async insert(tx: PostgresSql, s: NewRequest): Promise<SubmitOutcome | undefined> {
    const now = Date.now();
    // One round trip for the request and its claims: the claim takes only unclaimed rows, and only for a new request.
    // Each photo is looked up by its name alone: as `name = ANY(…) AND request_id IS NULL` the planner
    // also read the whole index of unclaimed photos (2 ms a submit with 80,000 of them, and growing).
    const [{ id, claimed }] = await tx.all<{ id: number | null; claimed: string[] }>(
      `WITH r AS (
         INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
       ), c AS (
         UPDATE photos p SET request_id = (SELECT id FROM r), owner = NULL
         FROM json_array_elements_text(?::json) named(name)
         WHERE p.name = named.name AND p.request_id IS NULL AND EXISTS (SELECT 1 FROM r) RETURNING p.name
       )
       SELECT (SELECT id FROM r) AS id, ARRAY(SELECT name FROM c) AS claimed`,
      [s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now, s.formRevision, photoNames(s)],
    );
    if (id === null) return undefined;
    const unavailable = unavailablePhotos(s, new Set(claimed));
    if (unavailable.length > 0) throw new Undo({ kind: 'photos-unavailable', fields: unavailable });
    const keys = limitKeys(s.deliveries);
    // Requests to one mailbox take turns from here to their commit: two counted at once would both
    // find room for one more mail. The locks are taken in one order, so two requests never wait on each other.
    if (keys.length > 0) {
      await tx.all(
        `SELECT pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(k, ${MAIL_LIMIT_LOCKS}) AS h FROM json_array_elements_text(?::json) k ORDER BY 1) locks`,
        [JSON.stringify(keys)],
      );
    }
    const counts =
      keys.length === 0
        ? []
        : // `= ANY(ARRAY(…))`, one value to the planner: `IN (SELECT json_array_elements_text(…))` got a
          // generic plan that read the whole index (every outbox row at each count: 1.7 ms at 12,000 rows).
          await tx.all<{ limit_key: string; n: number }>(
            `SELECT limit_key, count(*) AS n FROM outbox
             WHERE limit_key = ANY(ARRAY(SELECT json_array_elements_text(?::json))) AND queued_at > ? GROUP BY limit_key`,
            [JSON.stringify(keys), now - DAY_MS],
          );
    const queued = withinMailLimit(s.deliveries, new Map(counts.map((c) => [c.limit_key, c.n])), this.policy.mailsPerRecipientPerDay);
    if (queued.length > 0) {
      await tx.run(
        `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, next_attempt_at, due_at, queued_at, message_id, language)
         SELECT ?, kind, channel, recipient, limit_key, subject, body, next_attempt_at, next_attempt_at, ?, message_id, language
         FROM json_to_recordset(?::json)
           AS d(kind text, channel text, recipient text, limit_key text, subject text, body text, next_attempt_at bigint, message_id text, language text)`,
        [
          id, now,
          JSON.stringify(
            queued.map((d) => ({ ...d, recipient: d.to, limit_key: d.limitKey ?? null, body: d.text, next_attempt_at: firstAttempt(d, now), message_id: d.messageId })),
          ),
        ],
      );
    }
    return { kind: 'stored', reference: s.reference, replay: false };
  }
}
