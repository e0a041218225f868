/** How much a new attempt's duration moves the running estimate of the receiver's pace. */
const WEIGHT = 0.2;

export interface PaceOptions {
  /** Under way at once at any pace, and before the pace is known. */
  min: number;
  /** Under way at once at most (the channel's maxInFlight). */
  max: number;
  /** The under-way time one delivery's slot is worth: at a pace of `steadyMs / n` per delivery, `n` are kept under way. */
  steadyMs: number;
}

/**
 * How many deliveries to keep under way, by how long the receiver takes over one. Every delivery under
 * way when the process dies is one the receiver may have taken without its answer recorded, and is sent
 * again after the restart: a slow relay (200 ms a mail) with twenty under way sent 10 mails twice a
 * kill -9. So the slower the receiver, the fewer: the number under way times the pace stays about
 * `steadyMs`, never under `min` (a relay at 200 ms gets 4: 20 mails a second, far more than the desk's
 * mails need), never over `max`, and a fast receiver still gets all `max` slots.
 */
export class InFlightPace {
  private paceMs: number | undefined;

  constructor(private readonly options: PaceOptions) {}

  /** An attempt took `ms` (delivered, or failed for the receiver's reason). */
  took(ms: number): void {
    this.paceMs = this.paceMs === undefined ? ms : (1 - WEIGHT) * this.paceMs + WEIGHT * ms;
  }

  get limit(): number {
    const { min, max, steadyMs } = this.options;
    if (this.paceMs === undefined) return Math.min(min, max);
    return Math.max(Math.min(min, max), Math.min(max, Math.floor(steadyMs / Math.max(this.paceMs, 1))));
  }
}
