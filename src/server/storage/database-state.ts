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
 * Whether a statement stores a request or a photo (a submit calls portal_store_request, the submits of
 * one turn portal_store_requests): only that proves a store that refused (locked, full) takes them again.
 * Other writes may pass meanwhile (PostgreSQL locks one table, not the database; the rate-limit counters
 * and the outbox go on) and would otherwise say "back" and "locked" in turn.
 */
export function storesRequests(sql: string): boolean {
  return /\b(insert\s+into|update|delete\s+from)\s+"?(requests|photos)\b|\bportal_store_requests?\s*\(/i.test(sql);
}

/**
 * How long after a store last refused a write /readyz keeps the instance out (refusingWrites). Only a
 * stored request proves a refusing store is back, and a balancer that heeds /readyz sends none: red
 * for good would keep a recovered instance out forever. After this long it lets requests in again, and
 * the next refusal (a 503 with Retry-After, as without the balancer) makes it red for as long again.
 */
export const REFUSAL_HOLDS_MS = 30_000;

/**
 * How long after "back" a failure of the same kind still belongs to the outage that just ended: after a
 * restart each pooled connection fails once on its next use (the pool learns of it only then), and a
 * restart under load said "unreachable", "back" twice over. Such a failure makes the state down again
 * (readiness, metrics) without a line, and its recovery says nothing either; one that lasts past this is
 * an outage of its own, and is told.
 */
export const AFTERSHOCK_MS = 10_000;

/**
 * Whether the database answers and stores, as the last calls found it. A
 * change is told once: "database unreachable" (or locked, full…) when a call
 * first fails that way, "database back after N s" when one first succeeds
 * again; the calls in between say nothing more (an outage of a minute at 40
 * polls a second is one line, not two thousand stack traces), nor do the
 * failures just after it is back that still belong to it (AFTERSHOCK_MS).
 */
export class DatabaseState {
  private downSince: number | undefined;
  private kind: Unavailability | undefined;
  private lastRefusal = 0;
  /** When "back" was last told, and the kind of the outage it ended. */
  private back: { at: number; kind: Unavailability } | undefined;
  /** Down again within AFTERSHOCK_MS of "back", the same way: not told (yet). */
  private aftershock = false;

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
    const now = Date.now();
    this.lastRefusal = now;
    if (this.downSince === undefined && this.back?.kind === kind && now - this.back.at < AFTERSHOCK_MS) {
      this.downSince = now;
      this.kind = kind;
      this.aftershock = true;
      return;
    }
    // An aftershock that lasts is an outage of its own: told now, once.
    const lasting = this.aftershock && this.kind === kind && now - this.downSince! >= AFTERSHOCK_MS;
    if (this.downSince !== undefined && this.kind === kind && !lasting) return;
    this.downSince ??= now;
    this.kind = kind;
    this.aftershock = false;
    const told = TOLD[kind];
    this.log[told.level]({ reason: error.message, kind }, told.message);
  }

  /** A call succeeded; `stored` when it stored a request or photo (storesRequests), the proof a refusing store is back. */
  answered(stored = true): void {
    if (this.downSince === undefined) return;
    if (!stored && this.kind !== 'unreachable') return;
    const seconds = (Date.now() - this.downSince) / 1000;
    const { kind, aftershock } = this;
    this.downSince = undefined;
    this.kind = undefined;
    this.aftershock = false;
    // The end of an aftershock was told as the outage's end already.
    if (aftershock) return;
    this.back = { at: Date.now(), kind: kind! };
    this.log.info({ seconds }, `database back after ${seconds.toFixed(1)} s`);
  }
}
