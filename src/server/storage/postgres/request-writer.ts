import { randomUUID } from 'node:crypto';
import { UNVERIFIED_KINDS } from '../../outbox/delivery';
import { recordDeliveries, type DeliveryUpdate } from '../../outbox/outbox-rows';
import { plainError, type Outcome } from '../group-commit';
import { unverifiedKinds } from '../request-writer';
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

/** Ends a transaction without storing anything, with the outcome to answer. */
class Refused {
  constructor(readonly outcome: SubmitOutcome) {}
}

/**
 * PostgreSQL's request writer: each request in its own transaction on the
 * pool, so several instances store side by side. The database settles every
 * race between them: the unique Idempotency-Key makes a second insert of
 * the same key wait for the first and then do nothing (the submit answers
 * with the first one's reference), and a photo is claimed by an UPDATE that
 * only takes unclaimed rows, so of two requests naming it, one gets it.
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

  // No look-up of the key first: the insert finds an earlier request with the same key (and
  // waits for one under way), so a first submit, nearly every one, takes one round trip less.
  private async store(item: WriteItem): Promise<SubmitOutcome> {
    try {
      return await this.sql.transaction((tx) => this.insert(tx, item));
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      // The key was taken, before or meanwhile (a double post, another instance): answer as that request.
      if (error.outcome.kind === 'stored') return (await this.earlier(item)) ?? error.outcome;
      return error.outcome;
    }
  }

  private async earlier(item: WriteItem): Promise<SubmitOutcome | undefined> {
    if (item.idempotencyKey === undefined) return undefined;
    const [row] = await this.sql.all<{ reference: string; payload_hash: string }>(
      'SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?',
      [item.idempotencyKey],
    );
    return row && replayOf(item, row);
  }

  private async insert(tx: Sql, s: WriteItem): Promise<SubmitOutcome> {
    const now = Date.now();
    const [request] = await tx.all<{ id: number }>(
      `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      [s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now],
    );
    if (!request) throw new Refused({ kind: 'stored', reference: s.reference, replay: true });
    // After the key, as SQLite's writer checks them: a reused key is answered as such whatever its photos.
    const twice = unavailablePhotos(s, new Set([s.image1, s.image2]));
    if (twice.length > 0) throw new Refused({ kind: 'photos-unavailable', fields: twice });
    // Claimed photos leave the uploader's quota, and the uploader's address is no longer kept.
    const claimed = await tx.all<{ name: string }>(
      'UPDATE photos SET request_id = ?, owner = NULL WHERE name IN (?, ?) AND request_id IS NULL RETURNING name',
      [request.id, s.image1, s.image2],
    );
    const unavailable = unavailablePhotos(s, new Set(claimed.map((r) => r.name)));
    if (unavailable.length > 0) throw new Refused({ kind: 'photos-unavailable', fields: unavailable });

    const queued: WriteItem['deliveries'] = [];
    for (const d of s.deliveries) {
      if (UNVERIFIED_KINDS.includes(d.kind)) {
        // A form can aim mail at any address: past the limit, mail to it is dropped silently.
        const [{ n }] = await tx.all<{ n: number }>(
          `SELECT COUNT(*) AS n FROM outbox WHERE recipient = ? AND queued_at > ? AND kind IN (${unverifiedKinds()})`,
          [d.to, now - DAY_MS],
        );
        const alsoNow = queued.filter((q) => q.to === d.to && UNVERIFIED_KINDS.includes(q.kind)).length;
        if (n + alsoNow >= this.options.mailsPerRecipientPerDay) continue;
      }
      queued.push(d);
    }
    if (queued.length > 0) {
      await tx.run(
        `INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at, queued_at, message_id)
         VALUES ${queued.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        queued.flatMap((d) => [request.id, d.kind, d.to, d.subject, d.text, now, now, randomUUID()]),
      );
    }
    return { kind: 'stored', reference: s.reference, replay: false };
  }
}
