import { DUE_SELECT } from '../queries/outbox';
import type { DueDelivery } from '../records';
import type { PostgresSql } from './postgres-sql';

/**
 * Due deliveries of a channel for this instance. Several instances share the
 * outbox: rows are taken with FOR UPDATE SKIP LOCKED and leased (their next
 * attempt moved past the lease), so no other instance sends them meanwhile;
 * if this one dies, the lease runs out and another sends them (with the same
 * message id). Rows under way here (`busy`) are never taken again.
 */
export async function leaseDue(sql: PostgresSql, leaseMs: number, channel: string, limit: number, busy: ReadonlySet<number>, now: number): Promise<DueDelivery[]> {
  const rows = await sql.fresh<DueDelivery>(
    `WITH taken AS (
       SELECT o.id FROM outbox o
       WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.channel = ? AND o.next_attempt_at <= ?
         AND o.id NOT IN (SELECT json_array_elements_text(?::json)::bigint)
       ORDER BY o.next_attempt_at, o.id LIMIT ? FOR UPDATE SKIP LOCKED
     )
     UPDATE outbox o SET next_attempt_at = ? FROM taken, requests r
     WHERE o.id = taken.id AND r.id = o.request_id
     RETURNING ${DUE_SELECT}`,
    [channel, now, JSON.stringify([...busy]), limit, now + leaseMs],
  );
  return rows.sort((a, b) => a.id - b.id);
}
