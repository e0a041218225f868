import type { FastifyBaseLogger } from 'fastify';
import { DeliveryError } from '../delivery/kinds';
import { scrubText } from '../logging/scrub-text';
import type { DeliveryUpdate, DueDelivery } from '../storage/records';
import { isStoreUnavailable } from '../storage/store-unavailable';
import { backoffMs, retryDelayMs } from './retry-policy';

/** Where a worker's rows come from and go back to: the storage port's lease, and the request writer's recording. */
export interface OutboxRows {
  /** Up to `limit` due deliveries of the worker's channel, the longest due first, none of `busy`. */
  take(limit: number, busy: ReadonlySet<number>, now: number): Promise<DueDelivery[]>;
  /** Records attempts together: one commit for many. */
  record(updates: readonly DeliveryUpdate[], now: number): Promise<void>;
}

/** The longest pause after the outbox could not be read or written (the database is down). */
const MAX_PAUSE_MS = 10_000;

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface OutboxWorkerOptions {
  /** Deliveries under way at once: a slow receiver holds at most this many. */
  maxInFlight: number;
  retryBaseMs: number;
  maxAttempts: number;
  pollIntervalMs: number;
}

interface Result {
  delivery: DueDelivery;
  outcome: AttemptOutcome;
  error?: unknown;
}

/**
 * Delivers the queued outbox rows of one channel (mail or webhook), the
 * longest due first, at most `maxInFlight` at once; each delivery runs on its own, so one
 * slow receiver does not hold back the others. Results are recorded together
 * at each poll (one commit for many). A row
 * counts as delivered only once recorded: after a crash it is sent again with
 * the same message id (at least once).
 */
export class OutboxWorker {
  private readonly inFlight = new Map<number, Promise<void>>();
  private finished: Result[] = [];
  /** Finished and not yet recorded: such rows still look due, and must not be sent again. */
  private readonly unrecorded = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private launchedThisPoll = 0;
  private launchScheduled = false;
  /** The look for due rows under way, if any: one at a time, and stop() waits for it. */
  private looking: Promise<DueDelivery[]> | undefined;
  private recording: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Failures of the outbox in a row, and until when polls wait because of them. */
  private failures = 0;
  private pausedUntil = 0;

  constructor(
    private readonly rows: OutboxRows,
    private readonly deliver: (delivery: DueDelivery) => Promise<void>,
    private readonly options: OutboxWorkerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly onAttempt: (kind: string, outcome: AttemptOutcome) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => this.poll(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  /** Stops taking new work, waits for what is under way and records it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.looking?.catch(() => {});
    await Promise.all(this.inFlight.values());
    await this.record();
  }

  private poll(): void {
    if (Date.now() < this.pausedUntil) return;
    void this.record();
    this.launchedThisPoll = 0;
    void this.launch();
  }

  /**
   * Starts due deliveries into the free slots, at each poll and as soon as a
   * slot frees up, but at most 2 × maxInFlight per poll interval: a fast
   * receiver is kept busy, and a burst of submits is still stored at full
   * speed while its deliveries follow within seconds.
   */
  private async launch(): Promise<void> {
    this.launchScheduled = false;
    // One look at a time: two at once would take the same rows (SQLite) or more than the free slots.
    if (this.looking || this.stopped || Date.now() < this.pausedUntil) return;
    const free = Math.min(this.options.maxInFlight - this.inFlight.size, 2 * this.options.maxInFlight - this.launchedThisPoll);
    if (free <= 0) return;
    const busy = new Set([...this.inFlight.keys(), ...this.unrecorded]);
    let rows: DueDelivery[];
    this.looking = this.rows.take(free, busy, Date.now());
    try {
      rows = await this.looking;
      this.failures = 0;
    } catch (error) {
      this.pause(error, 'reading due deliveries failed');
      return;
    } finally {
      this.looking = undefined;
    }
    for (const delivery of rows) {
      this.launchedThisPoll++;
      const run = this.deliver(delivery).then(
        () => this.finish({ delivery, outcome: 'delivered' }),
        (error: unknown) => this.finish({ delivery, outcome: this.judge(delivery, error), error: error ?? new Error('delivery failed') }),
      );
      this.inFlight.set(delivery.id, run);
    }
  }

  /**
   * The outbox could not be read or written: polls wait, longer after each failure in a row (with jitter,
   * at most MAX_PAUSE_MS), instead of asking a database that is down twenty times a second. That the
   * database went and came back is logged once by its state; other failures are logged, once per pause.
   */
  private pause(error: unknown, what: string): void {
    this.failures++;
    this.pausedUntil = Date.now() + backoffMs(this.failures, this.options.pollIntervalMs, MAX_PAUSE_MS);
    if (!isStoreUnavailable(error)) this.log.error({ err: error }, `outbox: ${what}`);
  }

  /** A refusal the receiver means (a 4xx, a 5xx mail reply), or the last attempt, ends the retries. */
  private judge(delivery: DueDelivery, error: unknown): AttemptOutcome {
    const permanent = error instanceof DeliveryError && error.permanent;
    return permanent || delivery.attempts + 1 >= this.options.maxAttempts ? 'failed' : 'retry';
  }

  private finish(result: Result): void {
    this.finished.push(result);
    this.unrecorded.add(result.delivery.id);
    this.inFlight.delete(result.delivery.id);
    if (!this.launchScheduled && !this.stopped) {
      this.launchScheduled = true;
      setImmediate(() => void this.launch());
    }
  }

  /**
   * Records finished attempts, one recording after the other. Results that could not be recorded (the
   * database went away) stay to be recorded at a later poll; until then their rows are not taken again,
   * so a delivery made is not made twice. Only if the process ends first are they sent again (same message id).
   */
  private record(): Promise<void> {
    if (this.finished.length === 0) return this.recording;
    const results = this.finished;
    this.finished = [];
    const now = Date.now();
    this.recording = this.recording
      .then(() => this.rows.record(results.map((r) => this.update(r, now)), now))
      .then(
        () => {
          results.forEach((result) => this.report(result));
          results.forEach((r) => this.unrecorded.delete(r.delivery.id));
        },
        (error: unknown) => {
          this.finished.unshift(...results);
          this.pause(error, 'recording delivery results failed');
        },
      );
    return this.recording;
  }

  private update({ delivery, outcome, error }: Result, now: number): DeliveryUpdate {
    if (outcome === 'delivered') return { id: delivery.id, delivered: true };
    const attempts = delivery.attempts + 1;
    const retryAfterMs = error instanceof DeliveryError ? error.retryAfterMs : undefined;
    return {
      id: delivery.id,
      delivered: false,
      attempts,
      nextAttemptAt: now + retryDelayMs(attempts, this.options.retryBaseMs, retryAfterMs),
      // Kept in the database and shown to the staff: a mail server's refusal quotes the address it refused.
      lastError: scrubText(errorText(error)).slice(0, 500),
      failedForGood: outcome === 'failed',
    };
  }

  /** Logged once per attempt, after it is recorded: the final failure at error level, with the reference. */
  private report({ delivery, outcome, error }: Result): void {
    const { kind, reference } = delivery;
    this.onAttempt(kind, outcome);
    if (outcome === 'delivered') return;
    const context = { reference, kind, deliveryId: delivery.id, attempt: delivery.attempts + 1, err: errorText(error) };
    if (outcome === 'failed') this.log.error(context, `delivery failed for good: ${kind} of request ${reference}`);
    else this.log.warn(context, 'delivery failed; will retry');
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
