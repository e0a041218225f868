import { randomUUID } from 'node:crypto';
import { UNVERIFIED_KINDS } from '../../outbox/delivery';
import { recordDeliveries, type DeliveryUpdate } from '../../outbox/outbox-rows';
import { plainError, type Outcome } from '../group-commit';
import type { Sql } from '../sql';
import {
  DAY_MS,
  payloadHash,
  replayOf,
  unavailablePhotos,
  type RequestWriter,
  type SubmitOutcome,
  type WriteItem,
  type WriterOptions,
} from '../write-item';

/** What portal_store_request (migration 3) raises when a photo is not there to claim; the detail lists those it could. */
const PHOTOS_UNAVAILABLE = 'PT409';

/**
 * PostgreSQL's request writer: each request in one call of
 * portal_store_request (migrations.ts), its own transaction, so several
 * instances store side by side and a submit takes one round trip. The
 * database settles every race between them: the unique Idempotency-Key makes
 * a second insert of the same key wait for the first and then do nothing
 * (the call answers with the first one's reference and hash), and a photo is
 * claimed by an UPDATE that only takes unclaimed rows, so of two requests
 * naming it, one gets it; the other's call raises and stores nothing.
 */
export class PostgresRequestWriter implements RequestWriter {
  readonly alive = true;

  constructor(
    private readonly sql: Sql,
    private readonly options: WriterOptions,
  ) {}

  write(items: WriteItem[]): Promise<Outcome<SubmitOutcome>[]> {
    return Promise.all(
      items.map((item) =>
        this.store(item).then(
          (value): Outcome<SubmitOutcome> => ({ ok: true, value }),
          (error: unknown): Outcome<SubmitOutcome> => ({ ok: false, error: plainError(error) }),
        ),
      ),
    );
  }

  recordDeliveries(updates: readonly DeliveryUpdate[], now: number): Promise<void> {
    return recordDeliveries(this.sql, updates, now);
  }

  async close(): Promise<void> {}

  private async store(s: WriteItem): Promise<SubmitOutcome> {
    const now = Date.now();
    // Mails to addresses the portal has not verified count against the per-address limit (by these kinds).
    const deliveries = s.deliveries.map((d) => ({
      kind: d.kind,
      recipient: d.to,
      subject: d.subject,
      body: d.text,
      message_id: randomUUID(),
      counted_kinds: UNVERIFIED_KINDS.includes(d.kind) ? UNVERIFIED_KINDS : null,
    }));
    try {
      const [row] = await this.sql.all<{ stored_reference: string; stored_hash: string; new_request: boolean }>(
        'SELECT * FROM portal_store_request(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s),
          now, s.image1, s.image2, JSON.stringify(deliveries), now - DAY_MS, this.options.mailsPerRecipientPerDay,
        ],
      );
      if (row.new_request) return { kind: 'stored', reference: s.reference, replay: false };
      return replayOf(s, { reference: row.stored_reference, payload_hash: row.stored_hash });
    } catch (error) {
      const { code, detail } = error as { code?: string; detail?: string };
      if (code !== PHOTOS_UNAVAILABLE) throw error;
      return { kind: 'photos-unavailable', fields: unavailablePhotos(s, new Set(detail ? detail.split(',') : [])) };
    }
  }
}
