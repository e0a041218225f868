import { storedReference } from '../../core/reference';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';
import type { Undelivered } from '../../server/storage/records';

export type DeliveryRow = Undelivered;

/** Pending and failed deliveries, grouped by destination (brand, kind, recipient), oldest first. */
export function listDeliveries(storage: Pick<Storage, 'undelivered'>): Promise<DeliveryRow[]> {
  return storage.undelivered();
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
  lines.push(`\n${rows.length - failed} pending, ${failed} failed. Replay one with: npm run requests -- redeliver <reference>; all failed: redeliver --failed`);
  return lines;
}

function when(at: number, now: number): string {
  const minutes = Math.round((at - now) / 60_000);
  const relative = minutes === 0 ? 'now' : minutes > 0 ? `in ${minutes} min` : `${-minutes} min ago`;
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)} UTC (${relative})`;
}

/** What `redeliver` sends again: the desk's copies, delivered or not; customer mails only if they failed for good. */
const RESENT_KINDS = ['desk', 'webhook'];

/**
 * Queues a request's deliveries again: its service-desk mail and webhook
 * (delivered or not; the webhook keeps its webhook-id, so a receiver that
 * has it already can ignore it), and customer mails that failed for good.
 * Returns how many were queued; undefined for an unknown reference. The
 * reference may be typed as read out (any case, spaces, dashes).
 */
export function redeliver(storage: Pick<Storage, 'requeue'>, typed: string, now = Date.now()): Promise<number | undefined> {
  return storage.requeue(storedReference(typed), RESENT_KINDS, now);
}

/** Queues every delivery that failed for good again (those failed at or after `since`, when given); how many. */
export function redeliverFailed(storage: Pick<Storage, 'requeueFailed'>, since: number | undefined, now = Date.now()): Promise<number> {
  return storage.requeueFailed(since, now);
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO date or time (2026-11-27, 2026-11-27T08:00+01:00), or a duration back from now (90m, 12h, 3d). */
export function sinceTime(typed: string, now = Date.now()): number {
  const duration = /^(\d+)\s*([mhd])$/i.exec(typed.trim());
  if (duration) return now - Number(duration[1]) * UNITS[duration[2].toLowerCase()];
  const at = /^\d{4}-\d{2}-\d{2}/.test(typed) ? Date.parse(typed) : Number.NaN;
  if (Number.isNaN(at)) throw new CommandError(`--since must be an ISO date or time (2026-11-27, 2026-11-27T08:00+01:00) or a duration (90m, 12h, 3d), not "${typed}"`, 2);
  return at;
}
