import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/database';
import { DeliveryError, type Channel, type DeliveryKind, type DueDelivery } from './delivery';
import { retryDelayMs } from './retry-policy';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface OutboxWorkerOptions {
  channel: Channel;
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
  private readonly due;
  private readonly recordResults;
  private readonly inFlight = new Map<number, Promise<void>>();
  private finished: Result[] = [];
  private timer: NodeJS.Timeout | undefined;
  private launchedThisPoll = 0;
  private launchScheduled = false;
  private stopped = false;

  constructor(
    db: Db,
    private readonly deliver: (delivery: DueDelivery) => Promise<void>,
    private readonly options: OutboxWorkerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly onAttempt: (kind: DeliveryKind, outcome: AttemptOutcome) => void = () => {},
  ) {
    this.due = db.prepare(
      `SELECT o.id, o.kind, o.recipient, o.subject, o.body, o.attempts, COALESCE(o.message_id, 'outbox-' || o.id) AS messageId,
              r.reference, r.brand, r.payload
       FROM outbox o JOIN requests r ON r.id = o.request_id
       WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND (o.kind = 'webhook') = ${options.channel === 'webhook' ? 1 : 0}
         AND o.next_attempt_at <= ?
       ORDER BY o.next_attempt_at, o.id LIMIT ?`,
    );
    const markSent = db.prepare('UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?');
    const markFailedAttempt = db.prepare(
      'UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, failed_at = ? WHERE id = ?',
    );
    this.recordResults = db.transaction((results: Result[], now: number) => {
      for (const { delivery, outcome, error } of results) {
        if (outcome === 'delivered') {
          markSent.run(now, delivery.id);
          continue;
        }
        const attempts = delivery.attempts + 1;
        const retryAfterMs = error instanceof DeliveryError ? error.retryAfterMs : undefined;
        const next = now + retryDelayMs(attempts, this.options.retryBaseMs, retryAfterMs);
        markFailedAttempt.run(attempts, next, errorText(error).slice(0, 500), outcome === 'failed' ? now : null, delivery.id);
      }
    });
  }

  start(): void {
    this.timer = setInterval(() => this.poll(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  /** Stops taking new work, waits for what is under way and records it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(this.inFlight.values());
    this.record();
  }

  private poll(): void {
    this.record();
    this.launchedThisPoll = 0;
    this.launch();
  }

  /**
   * Starts due deliveries into the free slots, at each poll and as soon as a
   * slot frees up, but at most 2 × maxInFlight per poll interval: a fast
   * receiver is kept busy, and a burst of submits is still stored at full
   * speed while its deliveries follow within seconds.
   */
  private launch(): void {
    this.launchScheduled = false;
    const free = Math.min(this.options.maxInFlight - this.inFlight.size, 2 * this.options.maxInFlight - this.launchedThisPoll);
    if (free <= 0) return;
    // Finished rows wait for the next poll to be recorded and still look due: skip them too.
    const busy = new Set([...this.inFlight.keys(), ...this.finished.map((r) => r.delivery.id)]);
    let rows: DueDelivery[];
    try {
      rows = this.due.all(Date.now(), free + busy.size) as DueDelivery[];
    } catch (error) {
      this.log.error({ err: error }, 'outbox: reading due deliveries failed');
      return;
    }
    for (const delivery of rows.filter((d) => !busy.has(d.id)).slice(0, free)) {
      this.launchedThisPoll++;
      const run = this.deliver(delivery).then(
        () => this.finish({ delivery, outcome: 'delivered' }),
        (error: unknown) => this.finish({ delivery, outcome: this.judge(delivery, error), error: error ?? new Error('delivery failed') }),
      );
      this.inFlight.set(delivery.id, run);
    }
  }

  /** A refusal the receiver means (a 4xx, a 5xx mail reply), or the last attempt, ends the retries. */
  private judge(delivery: DueDelivery, error: unknown): AttemptOutcome {
    const permanent = error instanceof DeliveryError && error.permanent;
    return permanent || delivery.attempts + 1 >= this.options.maxAttempts ? 'failed' : 'retry';
  }

  private finish(result: Result): void {
    this.finished.push(result);
    this.inFlight.delete(result.delivery.id);
    if (!this.launchScheduled && !this.stopped) {
      this.launchScheduled = true;
      setImmediate(() => this.launch());
    }
  }

  private record(): void {
    if (this.finished.length === 0) return;
    const results = this.finished;
    this.finished = [];
    try {
      this.recordResults(results, Date.now());
    } catch (error) {
      // Disk full or the like: unrecorded deliveries are sent again later (same message id).
      this.log.error({ err: error }, 'outbox: recording delivery results failed');
      return;
    }
    for (const result of results) this.report(result);
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
