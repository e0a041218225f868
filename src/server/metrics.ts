import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DELIVERY_KINDS, type DeliveryKind } from './outbox/delivery';
import type { AttemptOutcome } from './outbox/outbox-worker';
import type { Sql } from './storage/sql';

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
  private readonly attempts = new Counter({
    name: 'portal_delivery_attempts_total',
    help: 'Delivery attempts by kind (confirmation, dealer, desk, webhook) and outcome (delivered, retry, failed = failed for good).',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });

  /** `databaseUp`: whether requests can be stored now; while not, the outbox gauges keep their last values. */
  constructor(sql: Sql, databaseUp: () => boolean) {
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
    const read = async <T>(query: string): Promise<T[] | undefined> => (databaseUp() ? sql.all<T>(query).catch(() => undefined) : undefined);
    const byKindGauge = (name: string, help: string, query: string) =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'],
        registers: [this.registry],
        async collect() {
          const rows = await read<{ kind: string; n: number }>(query);
          if (!rows) return;
          // Every kind is present, 0 included, so an alert never meets a missing series.
          for (const kind of DELIVERY_KINDS) this.set({ kind }, 0);
          for (const row of rows) this.set({ kind: row.kind }, row.n);
        },
      });
    byKindGauge('portal_outbox_pending', 'Deliveries queued and not yet delivered, by kind.',
      'SELECT kind, COUNT(*) AS n FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL GROUP BY kind',
    );
    byKindGauge('portal_outbox_failed', 'Deliveries that failed for good, by kind (see npm run requests -- deliveries).',
      'SELECT kind, COUNT(*) AS n FROM outbox WHERE failed_at IS NOT NULL GROUP BY kind',
    );
    new Gauge({
      name: 'portal_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest delivery still pending; 0 when none is.',
      registers: [this.registry],
      async collect() {
        const rows = await read<{ at: number | null }>(
          'SELECT MIN(COALESCE(queued_at, next_attempt_at)) AS at FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL',
        );
        if (!rows) return;
        const [{ at }] = rows;
        this.set(at === null ? 0 : Math.max(0, (Date.now() - at) / 1000));
      },
    });
  }

  requestAccepted(brand: string): void {
    this.requests.inc({ brand });
  }

  upload(outcome: 'accepted' | 'refused', reason = ''): void {
    this.uploads.inc({ outcome, reason });
  }

  deliveryAttempt(kind: DeliveryKind, outcome: AttemptOutcome): void {
    this.attempts.inc({ kind, outcome });
  }
}
