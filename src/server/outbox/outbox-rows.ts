import { bool, idsIn, type Sql } from '../storage/sql';
import type { Channel, DueDelivery } from './delivery';

/** An outbox row as stored: one delivery of a request (times in ms since 1970). */
export interface OutboxRow {
  id: number;
  request_id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  message_id: string | null;
  queued_at: number | null;
}

/** What an attempt changes in its row: delivered, or the next try (and whether that ends the retries). */
export type DeliveryUpdate =
  | { id: number; delivered: true }
  | { id: number; delivered: false; attempts: number; nextAttemptAt: number; lastError: string; failedForGood: boolean };

/** Records attempts together: one commit for many. */
export type DeliveryRecorder = (updates: readonly DeliveryUpdate[], now: number) => Promise<void>;

/**
 * The outbox rows a delivery worker takes and records. On PostgreSQL several
 * instances share the outbox: a worker takes its rows with FOR UPDATE SKIP
 * LOCKED and leases them (moves their next attempt past the lease), so no
 * other instance sends them meanwhile; if the instance dies, the lease runs
 * out and another one sends them (with the same message id). Either way a
 * worker never takes what it has under way itself (an attempt that outlasts
 * its lease is not started twice).
 */
export class OutboxRows {
  constructor(
    private readonly sql: Sql,
    private readonly channel: Channel,
    private readonly leaseMs: number,
    /** The request writer's (write-item.ts): with SQLite, its thread commits, not the event loop. */
    private readonly recorder: DeliveryRecorder,
  ) {}

  /** Up to `limit` due deliveries, the longest due first, none of `busy` (under way in this process). */
  async take(limit: number, busy: ReadonlySet<number>, now = Date.now()): Promise<DueDelivery[]> {
    const webhook = bool(this.sql, this.channel === 'webhook');
    const columns = `o.id, o.kind, o.recipient, o.subject, o.body, o.attempts, COALESCE(o.message_id, 'outbox-' || o.id) AS "messageId",
                     r.reference, r.brand, r.payload`;
    const due = `o.sent_at IS NULL AND o.failed_at IS NULL AND (o.kind = 'webhook') = ${webhook} AND o.next_attempt_at <= ?
                 AND o.id NOT IN ${idsIn(this.sql)}`;
    const params = [now, JSON.stringify([...busy]), limit];
    if (this.sql.dialect === 'postgres') {
      const rows = await this.sql.all<DueDelivery>(
        `WITH taken AS (
           SELECT o.id FROM outbox o WHERE ${due} ORDER BY o.next_attempt_at, o.id LIMIT ? FOR UPDATE SKIP LOCKED
         )
         UPDATE outbox o SET next_attempt_at = ? FROM taken, requests r
         WHERE o.id = taken.id AND r.id = o.request_id
         RETURNING ${columns}`,
        [...params, now + this.leaseMs],
      );
      return rows.sort((a, b) => a.id - b.id);
    }
    return this.sql.all<DueDelivery>(
      `SELECT ${columns} FROM outbox o JOIN requests r ON r.id = o.request_id
       WHERE ${due} ORDER BY o.next_attempt_at, o.id LIMIT ?`,
      params,
    );
  }

  record(updates: readonly DeliveryUpdate[], now = Date.now()): Promise<void> {
    return this.recorder(updates, now);
  }
}

/**
 * Records attempts together, in one transaction on `sql`: one commit for many. A row another
 * instance has recorded as sent meanwhile (this attempt outlasted its lease) stays sent.
 */
export async function recordDeliveries(sql: Sql, updates: readonly DeliveryUpdate[], now: number): Promise<void> {
  await sql.transaction(async (tx) => {
    for (const u of updates) {
      if (u.delivered) {
        await tx.run('UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ? AND sent_at IS NULL', [now, u.id]);
      } else {
        await tx.run('UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, failed_at = ? WHERE id = ? AND sent_at IS NULL', [
          u.attempts,
          u.nextAttemptAt,
          u.lastError,
          u.failedForGood ? now : null,
          u.id,
        ]);
      }
    }
  });
}
