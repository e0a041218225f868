import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DELIVERY_KINDS } from './delivery/kinds';
import type { AttemptOutcome } from './outbox/outbox-worker';
import type { Storage } from './storage/port';
import type { OutboxFigures } from './storage/records';

/**
 * The portal's Prometheus metrics (served at /metrics). Counters count what
 * happened in this process; the outbox gauges are read from the database at
 * each scrape, so they hold across restarts and include the CLI's redeliveries.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'portal_requests_accepted_total',
    help: 'Repair requests stored (201), by brand; idempotent replays are not counted again.',
    labelNames: ['brand'],
    registers: [this.registry],
  });
  private readonly uploads = new Counter({
    name: 'portal_uploads_total',
    help: 'Photo uploads by outcome (accepted, refused) and the reason of a refusal.',
    labelNames: ['outcome', 'reason'],
    registers: [this.registry],
  });
  private readonly held = new Counter({
    name: 'portal_mails_held_total',
    help: "Customers' confirmations put off to a later hour by the brand's hourly mail cap (MAILS_PER_BRAND_PER_HOUR) or the client's share of it, by brand.",
    labelNames: ['brand'],
    registers: [this.registry],
  });
  private readonly withheld = new Counter({
    name: 'portal_mails_withheld_total',
    help: 'Dealer notices not sent because the hourly budget (DEALER_MAILS_PER_BRAND_PER_HOUR) or the client\'s share was reached, by brand.',
    labelNames: ['brand'],
    registers: [this.registry],
  });
  private readonly evicted = new Counter({
    name: 'portal_photos_evicted_total',
    help: 'Unclaimed photos removed, oldest first, to make room for an upload within its shares once the total quota (PHOTO_QUOTA_TOTAL_MB) was full.',
    registers: [this.registry],
  });
  private readonly attempts = new Counter({
    name: 'portal_delivery_attempts_total',
    help: 'Delivery attempts by kind (confirmation, dealer, desk, webhook) and outcome (delivered, retry, failed = failed for good).',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });

  private readonly destinations = new Gauge({
    name: 'portal_delivery_destination_up',
    help: 'Whether a delivery destination took its last attempt (1) or is down and its deliveries wait (0), by channel (mail, webhook) and destination (the mail relay; the brand for webhooks): alert on 0 lasting.',
    labelNames: ['channel', 'destination'],
    registers: [this.registry],
  });

  /** `databaseUp`: whether requests can be stored now; while not, the outbox gauges keep their last values. */
  constructor(storage: Pick<Storage, 'outboxFigures'>, databaseUp: () => boolean) {
    // Process figures (CPU, memory, event-loop lag) beside the portal's own.
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'portal_database_up',
      help: 'Whether the database answers and requests can be stored (1) or not (0): alert on 0.',
      registers: [this.registry],
      collect() {
        this.set(databaseUp() ? 1 : 0);
      },
    });
    // A scrape during an outage still answers: figures read from the database are skipped, not failed.
    // One read serves every gauge of a scrape (they are collected together).
    let read: { at: number; figures: Promise<OutboxFigures | undefined> } | undefined;
    const figures = () => {
      if (!read || Date.now() - read.at > 1000) {
        read = { at: Date.now(), figures: databaseUp() ? storage.outboxFigures().catch(() => undefined) : Promise.resolve(undefined) };
      }
      return read.figures;
    };
    const byKindGauge = (name: string, help: string, read: (f: OutboxFigures) => Record<string, number>) =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'],
        registers: [this.registry],
        async collect() {
          const found = await figures();
          if (!found) return;
          // Every kind is present, 0 included, so an alert never meets a missing series.
          for (const kind of DELIVERY_KINDS) this.set({ kind }, 0);
          for (const [kind, n] of Object.entries(read(found))) this.set({ kind }, n);
        },
      });
    byKindGauge('portal_outbox_pending', 'Deliveries queued and not yet delivered, by kind.', (f) => f.pendingByKind);
    byKindGauge('portal_outbox_failed', 'Deliveries that failed for good, by kind (see npm run requests -- deliveries).', (f) => f.failedByKind);
    new Gauge({
      name: 'portal_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest delivery still pending, from when it was due (a confirmation held back by the mail cap: from its hour); 0 when none is.',
      registers: [this.registry],
      async collect() {
        const found = await figures();
        if (!found) return;
        const at = found.oldestPendingAt;
        this.set(at === null ? 0 : Math.max(0, (Date.now() - at) / 1000));
      },
    });
  }

  requestAccepted(brand: string): void {
    this.requests.inc({ brand });
  }

  mailHeld(brand: string): void {
    this.held.inc({ brand });
  }

  mailWithheld(brand: string): void {
    this.withheld.inc({ brand });
  }

  photosEvicted(photos: number): void {
    this.evicted.inc(photos);
  }

  /** The share of the unclaimed-photo quota in use, read at each scrape (`read` answers it; a failed read is skipped). */
  unclaimedPhotoQuota(read: () => Promise<number>): void {
    new Gauge({
      name: 'portal_unclaimed_photo_quota_ratio',
      help: 'Unclaimed photos as a share of PHOTO_QUOTA_TOTAL_MB (all instances): past 0.8 /readyz warns, at 1 those older than PHOTO_KEPT_FOR_FORM_MS make room, the fullest provider block first.',
      registers: [this.registry],
      async collect() {
        const ratio = await read().catch(() => undefined);
        if (ratio !== undefined) this.set(ratio);
      },
    });
  }

  upload(outcome: 'accepted' | 'refused', reason = ''): void {
    this.uploads.inc({ outcome, reason });
  }

  deliveryAttempt(kind: string, outcome: AttemptOutcome): void {
    this.attempts.inc({ kind, outcome });
  }

  deliveryDestination(channel: string, destination: string, up: boolean): void {
    this.destinations.set({ channel, destination }, up ? 1 : 0);
  }
}
