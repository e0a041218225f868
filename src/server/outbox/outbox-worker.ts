import type { FastifyBaseLogger } from 'fastify';
import { DeliveryError } from '../delivery/kinds';
import { scrubText } from '../logging/scrub-text';
import type { DeliveryUpdate, DueDelivery } from '../storage/records';
import { isStoreUnavailable } from '../storage/store-unavailable';
import { DestinationWatch, errorText, type DestinationState } from './destination-watch';
import { InFlightPace, type PaceOptions } from './in-flight-pace';
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
  /** The channel's name (mail, webhook), as the log and the metrics say it. */
  channel: string;
  /** Deliveries under way at once: a slow receiver holds at most this many. */
  maxInFlight: number;
  /** Fewer under way the slower the receiver (in-flight-pace.ts), so a crash sends fewer again; absent: maxInFlight. */
  pace?: Omit<PaceOptions, 'max'>;
  retryBaseMs: number;
  /** How long after it was queued a delivery is still retried (DELIVERY_GIVE_UP_HOURS); a permanent refusal ends it sooner. */
  giveUpMs: number;
  pollIntervalMs: number;
  /**
   * Where a delivery goes, as far as being up or down goes: one relay for mail, each brand's receiver
   * for webhooks. Defaults to the channel: one destination.
   */
  destinationOf?: (delivery: DueDelivery) => string;
  /** The time, in ms since 1970: Date.now, or a test's clock moved on by hours. */
  clock?: () => number;
}


interface Result {
  delivery: DueDelivery;
  outcome: AttemptOutcome;
  error?: unknown;
  /** The attempt's place in the order attempts were started. */
  started: number;
  /** How long it took, in ms. */
  tookMs: number;
}

/**
 * Delivers the queued outbox rows of one channel (mail or webhook), the
 * longest due first, at most `maxInFlight` at once; each delivery runs on its own, so one
 * slow receiver does not hold back the others. Each result is recorded as soon as it is
 * known (those that finish during a recording share the next one). A row
 * counts as delivered only once recorded: after a crash it is sent again with
 * the same message id (at least once). A delivery keeps its slot until recorded, so a
 * crash sends again at most `maxInFlight` deliveries.
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
  /** A recording is waiting for the one under way to end, and will take what finished meanwhile. */
  private recordQueued = false;
  private stopped = false;
  /** Failures of the outbox in a row, and until when polls wait because of them. */
  private failures = 0;
  private pausedUntil = 0;
  private readonly watch: DestinationWatch;
  private attemptsStarted = 0;
  private readonly now: () => number;
  private readonly destinationOf: (delivery: DueDelivery) => string;
  private readonly pace: InFlightPace | undefined;

  constructor(
    private readonly rows: OutboxRows,
    private readonly deliver: (delivery: DueDelivery) => Promise<void>,
    private readonly options: OutboxWorkerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly onAttempt: (kind: string, outcome: AttemptOutcome) => void = () => {},
    onDestination: DestinationState = () => {},
  ) {
    this.now = options.clock ?? Date.now;
    this.destinationOf = options.destinationOf ?? (() => options.channel);
    this.pace = options.pace && new InFlightPace({ ...options.pace, max: options.maxInFlight });
    this.watch = new DestinationWatch(options.channel, options.giveUpMs, this.now, log, onDestination);
  }

  /** Deliveries to keep under way now: maxInFlight, or fewer for a slow receiver (pace). */
  private get limit(): number {
    return this.pace?.limit ?? this.options.maxInFlight;
  }

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
    if (this.now() < this.pausedUntil) return;
    void this.record();
    this.launchedThisPoll = 0;
    void this.launch();
  }

  /**
   * Starts due deliveries into the free slots, at each poll and as soon as a
   * slot frees up, but at most 2 × the limit per poll interval: a fast
   * receiver is kept busy, and a burst of submits is still stored at full
   * speed while its deliveries follow within seconds.
   */
  private async launch(): Promise<void> {
    this.launchScheduled = false;
    // One look at a time: two at once would take the same rows (SQLite) or more than the free slots.
    if (this.looking || this.stopped || this.now() < this.pausedUntil) return;
    // A delivery made and not yet recorded still holds its slot: it is what a crash now would send again.
    const held = this.inFlight.size + this.unrecorded.size;
    const { limit } = this;
    const free = Math.min(limit - held, 2 * limit - this.launchedThisPoll);
    if (free <= 0) return;
    const busy = new Set([...this.inFlight.keys(), ...this.unrecorded]);
    let rows: DueDelivery[];
    this.looking = this.rows.take(free, busy, this.now());
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
      const started = this.attemptsStarted++;
      const since = performance.now();
      const tookMs = () => performance.now() - since;
      const run = this.deliver(delivery).then(
        () => this.finish({ delivery, outcome: 'delivered', started, tookMs: tookMs() }),
        (error: unknown) => this.finish({ delivery, outcome: this.judge(delivery, error), error: error ?? new Error('delivery failed'), started, tookMs: tookMs() }),
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
    this.pausedUntil = this.now() + backoffMs(this.failures, this.options.pollIntervalMs, MAX_PAUSE_MS);
    if (!isStoreUnavailable(error)) this.log.error({ err: error }, `outbox: ${what}`);
  }

  /**
   * A refusal the receiver means (a 5xx mail reply, a webhook 4xx but 408/429) ends the retries; anything
   * else (a relay or receiver down, busy, or slow) is retried until giveUpMs after the delivery was queued.
   */
  private judge(delivery: DueDelivery, error: unknown): AttemptOutcome {
    const permanent = error instanceof DeliveryError && error.permanent;
    return permanent || this.now() - delivery.queuedAt >= this.options.giveUpMs ? 'failed' : 'retry';
  }

  private finish(result: Result): void {
    this.pace?.took(result.tookMs);
    this.finished.push(result);
    this.unrecorded.add(result.delivery.id);
    this.inFlight.delete(result.delivery.id);
    // Recorded now, not at the next poll: until then a crash would send it again.
    if (!this.recordQueued) {
      this.recordQueued = true;
      void this.recording.then(() => {
        this.recordQueued = false;
        return this.record();
      });
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
    const now = this.now();
    this.recording = this.recording
      .then(() => this.rows.record(results.map((r) => this.update(r, now)), now))
      .then(
        () => {
          results.forEach((result) => this.report(result));
          results.forEach((r) => this.unrecorded.delete(r.delivery.id));
          // Their slots are free: fill them without waiting for the next poll.
          if (!this.launchScheduled && !this.stopped) {
            this.launchScheduled = true;
            setImmediate(() => void this.launch());
          }
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

  /**
   * After an attempt is recorded: its metric; a delivery that failed for good at error level, with the
   * reference; a retry only at debug level, since an outage fails every queued delivery over and over:
   * that a destination went down and came back is said once each (destination-watch.ts).
   */
  private report(result: Result): void {
    const { delivery, outcome, error } = result;
    const { kind, reference } = delivery;
    this.onAttempt(kind, outcome);
    this.watch.attempted({ destination: this.destinationOf(delivery), delivered: outcome === 'delivered', error, started: result.started });
    if (outcome === 'delivered') return;
    const context = { reference, kind, deliveryId: delivery.id, attempt: delivery.attempts + 1, err: errorText(error) };
    if (outcome === 'failed') this.log.error(context, `delivery failed for good: ${kind} of request ${reference}`);
    else this.log.debug(context, 'delivery failed; will retry');
  }
}
