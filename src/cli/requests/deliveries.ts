import type { Sql } from '../../server/storage/sql';

export interface DeliveryRow {
  brand: string;
  kind: string;
  recipient: string;
  reference: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number;
  failedAt: number | null;
}

/** Pending and failed deliveries, grouped by destination (brand, kind, recipient), oldest first. */
export function listDeliveries(sql: Sql): Promise<DeliveryRow[]> {
  return sql.all<DeliveryRow>(
    `SELECT r.brand, o.kind, o.recipient, r.reference, o.attempts, o.last_error AS "lastError",
            o.next_attempt_at AS "nextAttemptAt", o.failed_at AS "failedAt"
     FROM outbox o JOIN requests r ON r.id = o.request_id
     WHERE o.sent_at IS NULL
     ORDER BY r.brand, o.kind, o.recipient, o.id`,
  );
}

const KIND_NAMES: Record<string, string> = {
  desk: 'service-desk mail',
  webhook: 'webhook',
  confirmation: "customer's confirmation",
  dealer: "dealer's notice",
};

/** The listing as people read it: a heading per destination, a line per delivery. */
export function formatDeliveries(rows: DeliveryRow[], now = Date.now()): string[] {
  if (rows.length === 0) return ['No pending or failed deliveries.'];
  const lines: string[] = [];
  let destination = '';
  for (const row of rows) {
    const heading = `${row.brand}: ${KIND_NAMES[row.kind] ?? row.kind} → ${row.recipient}`;
    if (heading !== destination) {
      lines.push(lines.length ? `\n${heading}` : heading);
      destination = heading;
    }
    const state = row.failedAt === null ? `pending, next try ${when(row.nextAttemptAt, now)}` : `FAILED for good ${when(row.failedAt, now)}`;
    const error = row.lastError ? `, last error: ${row.lastError}` : '';
    lines.push(`  ${row.reference}  ${state}, ${row.attempts} attempt${row.attempts === 1 ? '' : 's'}${error}`);
  }
  const failed = rows.filter((r) => r.failedAt !== null).length;
  lines.push(`\n${rows.length - failed} pending, ${failed} failed. Replay one with: npm run requests -- redeliver <reference>`);
  return lines;
}

function when(at: number, now: number): string {
  const minutes = Math.round((at - now) / 60_000);
  const relative = minutes === 0 ? 'now' : minutes > 0 ? `in ${minutes} min` : `${-minutes} min ago`;
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)} UTC (${relative})`;
}

/**
 * Queues a request's deliveries again: its service-desk mail and webhook
 * (delivered or not; the webhook keeps its webhook-id, so a receiver that
 * has it already can ignore it), and customer mails that failed for good.
 * Returns how many were queued; undefined for an unknown reference.
 */
export async function redeliver(sql: Sql, reference: string, now = Date.now()): Promise<number | undefined> {
  const [request] = await sql.all<{ id: number }>('SELECT id FROM requests WHERE reference = ?', [reference]);
  if (!request) return undefined;
  return sql.run(
    `UPDATE outbox SET sent_at = NULL, failed_at = NULL, attempts = 0, last_error = NULL, next_attempt_at = ?, queued_at = ?
     WHERE request_id = ? AND (kind IN ('desk', 'webhook') OR failed_at IS NOT NULL)`,
    [now, now, request.id],
  );
}
