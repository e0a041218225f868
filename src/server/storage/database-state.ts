import { unavailability, type Unavailability } from './store-unavailable';

/** Where the database's changes of state are told (the app's logger). */
export interface StateLog {
  error(data: object, message: string): void;
  warn(data: object, message: string): void;
  info(data: object, message: string): void;
}

/** How each way of refusing is told: a lock held elsewhere passes by itself (warn); a full or failing disk needs someone (error). */
const TOLD: Record<Unavailability, { level: 'warn' | 'error'; message: string }> = {
  busy: { level: 'warn', message: 'database locked by another connection: requests refused with 503 until it is released' },
  full: { level: 'error', message: 'database disk full: requests refused with 503' },
  readonly: { level: 'error', message: 'database read-only: requests refused with 503' },
  io: { level: 'error', message: 'database disk error: requests refused with 503' },
  unreachable: { level: 'error', message: 'database unreachable' },
};

/**
 * Whether the database answers and stores, as the last calls found it. A
 * change is told once: "database unreachable" (or locked, full…) when a call
 * first fails that way, "database back after N s" when one first succeeds
 * again; the calls in between say nothing more (an outage of a minute at 40
 * polls a second is one line, not two thousand stack traces).
 */
/**
 * Whether a statement stores a request or a photo: only that proves a store that refused (locked, full)
 * takes them again. Other writes may pass meanwhile (PostgreSQL locks one table, not the database; the
 * rate-limit counters and the outbox go on) and would otherwise say "back" and "locked" in turn.
 */
export function storesRequests(sql: string): boolean {
  return /\b(insert\s+into|update|delete\s+from)\s+"?(requests|photos)\b/i.test(sql);
}

/**
 * How long after a store last refused a write /readyz keeps the instance out (refusingWrites). Only a
 * stored request proves a refusing store is back, and a balancer that heeds /readyz sends none: red
 * for good would keep a recovered instance out forever. After this long it lets requests in again, and
 * the next refusal (a 503 with Retry-After, as without the balancer) makes it red for as long again.
 */
export const REFUSAL_HOLDS_MS = 30_000;

export class DatabaseState {
  private downSince: number | undefined;
  private kind: Unavailability | undefined;
  private lastRefusal = 0;

  constructor(private readonly log: StateLog = { error() {}, warn() {}, info() {} }) {}

  get up(): boolean {
    return this.downSince === undefined;
  }

  /** Whether writes are refused, as far as a probe can tell: down, and a write was refused in the last REFUSAL_HOLDS_MS. */
  get refusingWrites(): boolean {
    return this.downSince !== undefined && Date.now() - this.lastRefusal < REFUSAL_HOLDS_MS;
  }

  /** `error` an unavailable store's error (its kind decides the words), or any error that lost the connection. */
  unreachable(error: Error): void {
    const kind = unavailability(error);
    this.lastRefusal = Date.now();
    if (this.downSince !== undefined && this.kind === kind) return;
    this.downSince ??= Date.now();
    this.kind = kind;
    const told = TOLD[kind];
    this.log[told.level]({ reason: error.message, kind }, told.message);
  }

  /** A call succeeded; `stored` when it stored a request or photo (storesRequests), the proof a refusing store is back. */
  answered(stored = true): void {
    if (this.downSince === undefined) return;
    if (!stored && this.kind !== 'unreachable') return;
    const seconds = (Date.now() - this.downSince) / 1000;
    this.downSince = undefined;
    this.kind = undefined;
    this.log.info({ seconds }, `database back after ${seconds.toFixed(1)} s`);
  }
}
