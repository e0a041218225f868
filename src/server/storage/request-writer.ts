import { createHash, randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { Locale, Variant } from '../../core/types';
import { UNVERIFIED_KINDS, type QueuedDelivery } from '../outbox/delivery';
import { openDatabase, type Db } from './database';
import { batchTransaction, plainError, type ErrorData, type Outcome } from './group-commit';

/** A validated request, ready to store: plain data, as it crosses to the writer thread. */
export interface WriteItem {
  brand: string;
  variant: Variant;
  locale: Locale;
  /** The request as JSON. */
  payload: string;
  image1: string;
  image2: string;
  idempotencyKey?: string;
  /** Used if the request is stored, not if the key replays an earlier one. */
  reference: string;
  deliveries: QueuedDelivery[];
}

export type SubmitOutcome =
  | { kind: 'stored'; reference: string; replay: boolean }
  /** image1/image2 not stored here, or already used by another request. */
  | { kind: 'photos-unavailable'; fields: ('image1' | 'image2')[] }
  /** The key was used before with a different request. */
  | { kind: 'key-conflict' };

export type ToWriter = { seq: number; items: WriteItem[] } | { close: true };
export type FromWriter = { ready: true } | { seq: number; outcomes: Outcome<SubmitOutcome>[] } | { seq: number; failed: ErrorData };

export interface WriterOptions {
  /** Mails to one unverified address per 24 hours; more are not queued (the request still is). */
  mailsPerRecipientPerDay: number;
}

const DAY_MS = 24 * 60 * 60_000;

/** Stores each request with its photos claimed and its deliveries queued; a batch shares one transaction. */
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
  const unverified = UNVERIFIED_KINDS.map((k) => `'${k}'`).join(', ');
  const mailsTo = db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE recipient = ? AND queued_at > ? AND kind IN (${unverified})`);
  // A form can aim mail at any address: past the limit, mail to it is dropped silently.
  const withinLimit = (d: QueuedDelivery, now: number) =>
    !UNVERIFIED_KINDS.includes(d.kind) || (mailsTo.all(d.to, now - DAY_MS) as { n: number }[])[0].n < mailsPerRecipientPerDay;

  return batchTransaction(db, (s: WriteItem): SubmitOutcome => {
    const hash = createHash('sha256').update(`${s.brand}\n${s.payload}`).digest('hex');
    if (s.idempotencyKey !== undefined) {
      const [earlier] = byKey.all(s.idempotencyKey) as { reference: string; payload_hash: string }[];
      if (earlier) {
        return earlier.payload_hash === hash
          ? { kind: 'stored', reference: earlier.reference, replay: true }
          : { kind: 'key-conflict' };
      }
    }
    const { image1, image2 } = s;
    const rows = photoRows.all(image1, image2) as { name: string; request_id: number | null }[];
    const free = new Set(rows.filter((r) => r.request_id === null).map((r) => r.name));
    const unavailable = (['image1', 'image2'] as const).filter((f) => !free.has(s[f]));
    if (image1 === image2) unavailable.push('image2');
    if (unavailable.length > 0) return { kind: 'photos-unavailable', fields: [...new Set(unavailable)] };

    const now = Date.now();
    const { lastInsertRowid: id } = insertRequest.run(
      s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, hash, now,
    );
    claimPhotos.run(id, image1, image2);
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
 */
export function serveRequestWriter({ dataDir, ...options }: { dataDir: string } & WriterOptions): void {
  const port = parentPort!;
  const db = openDatabase(dataDir);
  const write = requestWriter(db, options);
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
    queue.push(message);
    // All messages already delivered in this turn join the same transaction.
    if (queue.length === 1) setImmediate(flush);
  });
  port.postMessage({ ready: true } satisfies FromWriter);
}
