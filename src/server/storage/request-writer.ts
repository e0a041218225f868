import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { UNVERIFIED_KINDS, type QueuedDelivery } from '../outbox/delivery';
import { recordDeliveries, type DeliveryUpdate } from '../outbox/outbox-rows';
import { openDatabase, type Db } from './database';
import { batchTransaction, plainError, type ErrorData, type Outcome } from './group-commit';
import { SqliteSql } from './sqlite/sqlite-sql';
import { DAY_MS, payloadHash, replayOf, unavailablePhotos, type SubmitOutcome, type WriteItem, type WriterOptions } from './write-item';

export type ToWriter = { seq: number; items: WriteItem[] } | { seq: number; deliveries: DeliveryUpdate[]; now: number } | { close: true };
export type FromWriter =
  | { ready: true }
  | { seq: number; outcomes: Outcome<SubmitOutcome>[] }
  | { seq: number; recorded: true }
  | { seq: number; failed: ErrorData };

/** SQLite: stores each request with its photos claimed and its deliveries queued; a batch shares one transaction. */
export function requestWriter(db: Db, { mailsPerRecipientPerDay }: WriterOptions): (items: WriteItem[]) => Outcome<SubmitOutcome>[] {
  const byKey = db.prepare('SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?');
  const photoRows = db.prepare('SELECT name, request_id FROM photos WHERE name IN (?, ?)');
  const insertRequest = db.prepare(
    `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Claimed photos leave the uploader's quota, and the uploader's address is no longer kept.
  const claimPhotos = db.prepare('UPDATE photos SET request_id = ?, owner = NULL WHERE name IN (?, ?) AND request_id IS NULL');
  const queue = db.prepare(
    `INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at, queued_at, message_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const counted = UNVERIFIED_KINDS.map((k) => `'${k}'`).join(', ');
  const mailsTo = db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE recipient = ? AND queued_at > ? AND kind IN (${counted})`);
  // A form can aim mail at any address: past the limit, mail to it is dropped silently.
  const withinLimit = (d: QueuedDelivery, now: number) =>
    !UNVERIFIED_KINDS.includes(d.kind) || (mailsTo.all(d.to, now - DAY_MS) as { n: number }[])[0].n < mailsPerRecipientPerDay;

  return batchTransaction(db, (s: WriteItem): SubmitOutcome => {
    if (s.idempotencyKey !== undefined) {
      const [earlier] = byKey.all(s.idempotencyKey) as { reference: string; payload_hash: string }[];
      if (earlier) return replayOf(s, earlier);
    }
    const rows = photoRows.all(s.image1, s.image2) as { name: string; request_id: number | null }[];
    const unavailable = unavailablePhotos(s, new Set(rows.filter((r) => r.request_id === null).map((r) => r.name)));
    if (unavailable.length > 0) return { kind: 'photos-unavailable', fields: unavailable };

    const now = Date.now();
    const { lastInsertRowid: id } = insertRequest.run(
      s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now,
    );
    claimPhotos.run(id, s.image1, s.image2);
    for (const d of s.deliveries.filter((d) => withinLimit(d, now))) {
      queue.run(id, d.kind, d.to, d.subject, d.text, now, now, randomUUID());
    }
    return { kind: 'stored', reference: s.reference, replay: false };
  });
}

/**
 * The writer thread's loop. Its commits (SQLite work and fsync) run beside
 * the main thread's request handling instead of blocking it. Batches that
 * arrive while a commit is under way are merged into the next transaction.
 * Delivery results are recorded here too: on the main thread's connection,
 * their commit blocked the event loop for its fsync, and for as long as a
 * batch here held the write lock (SQLite's busy wait sleeps).
 */
export function serveRequestWriter({ dataDir, ...options }: { dataDir: string } & WriterOptions): void {
  const port = parentPort!;
  const db = openDatabase(dataDir);
  const write = requestWriter(db, options);
  // Statements on this connection run synchronously: the transaction is done before the next message is read.
  const sql = new SqliteSql(db);
  let queue: { seq: number; items: WriteItem[] }[] = [];

  const flush = () => {
    const batches = queue;
    queue = [];
    if (batches.length === 0) return;
    let outcomes: Outcome<SubmitOutcome>[];
    try {
      outcomes = write(batches.flatMap((b) => b.items));
    } catch (error) {
      const failed = plainError(error);
      for (const { seq } of batches) port.postMessage({ seq, failed } satisfies FromWriter);
      return;
    }
    let at = 0;
    for (const { seq, items } of batches) {
      port.postMessage({ seq, outcomes: outcomes.slice(at, (at += items.length)) } satisfies FromWriter);
    }
  };

  port.on('message', (message: ToWriter) => {
    if ('close' in message) {
      flush();
      db.close();
      port.close();
      return;
    }
    if ('deliveries' in message) {
      const { seq } = message;
      void recordDeliveries(sql, message.deliveries, message.now).then(
        () => port.postMessage({ seq, recorded: true } satisfies FromWriter),
        (error: unknown) => port.postMessage({ seq, failed: plainError(error) } satisfies FromWriter),
      );
      return;
    }
    queue.push(message);
    // All messages already delivered in this turn join the same transaction.
    if (queue.length === 1) setImmediate(flush);
  });
  port.postMessage({ ready: true } satisfies FromWriter);
}
