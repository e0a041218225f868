import type { DatabaseSync } from 'node:sqlite';
import { parentPort } from 'node:worker_threads';
import { Kysely } from 'kysely';
import { plainError, type ErrorData } from '../group-commit';
import type { Outcome, WritePolicy } from '../port';
import { recordDeliveries } from '../queries/outbox';
import type { DeliveryUpdate, NewRequest, SubmitOutcome, WriteOutcome } from '../records';
import type { PortalDatabase } from '../schema';
import { DAY_MS, firstAttempt, limitKeys, payloadHash, photoNames, replayOf, unavailablePhotos, withinMailLimit } from '../store-rules';
import { batchTransaction, UndoItem } from './batch-transaction';
import { LOCK_WAIT_MS, openDatabase } from './connection';
import { sqliteError } from './sqlite-errors';
import { NodeSqliteDialect } from './kysely-dialect';

export type ToWriter = { seq: number; items: NewRequest[]; sentAt: number } | { seq: number; deliveries: DeliveryUpdate[]; now: number } | { close: true };
export type FromWriter =
  | { ready: true }
  | { seq: number; outcomes: Outcome<WriteOutcome>[] }
  | { seq: number; recorded: true }
  | { seq: number; failed: ErrorData };

/** SQLite's answer to an insert whose reference another request has (SQLITE_CONSTRAINT_UNIQUE on requests.reference). */
function referenceTaken(error: unknown): boolean {
  const { errcode, message } = error as { errcode?: unknown; message?: unknown };
  return errcode === 2067 && String(message).includes('requests.reference');
}

/**
 * SQLite: stores each request with its photos claimed and its deliveries
 * queued, by the rules of store-rules.ts; a batch shares one transaction.
 */
export function requestWriter(db: DatabaseSync, { mailsPerRecipientPerDay }: WritePolicy): (items: NewRequest[]) => Outcome<WriteOutcome>[] {
  const byKey = db.prepare('SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?');
  const insertRequest = db.prepare(
    `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Claimed photos leave the uploader's quota, and the uploader's address is no longer kept.
  const claimPhotos = db.prepare(
    'UPDATE photos SET request_id = ?, owner = NULL WHERE name IN (SELECT value FROM json_each(?)) AND request_id IS NULL RETURNING name',
  );
  const sentTo = db.prepare('SELECT count(*) AS n FROM outbox WHERE limit_key = ? AND queued_at > ?');
  const queue = db.prepare(
    `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, next_attempt_at, due_at, queued_at, message_id, language)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  return batchTransaction(db, (s: NewRequest): WriteOutcome => {
    // One writer: no other transaction can store the same key meanwhile.
    if (s.idempotencyKey !== undefined) {
      const [earlier] = byKey.all(s.idempotencyKey) as { reference: string; payload_hash: string }[];
      if (earlier) return replayOf(s, earlier);
    }
    const now = Date.now();
    let id: number | bigint;
    try {
      ({ lastInsertRowid: id } = insertRequest.run(
        s.reference, s.brand, s.variant, s.locale, s.payload, s.idempotencyKey ?? null, payloadHash(s), now, s.formRevision,
      ));
    } catch (error) {
      // Nothing of the item is written yet: the caller tries again under a new reference.
      if (referenceTaken(error)) return { kind: 'reference-taken' };
      throw error;
    }
    const claimed = new Set((claimPhotos.all(id, photoNames(s)) as { name: string }[]).map((r) => r.name));
    const unavailable = unavailablePhotos(s, claimed);
    if (unavailable.length > 0) throw new UndoItem<SubmitOutcome>({ kind: 'photos-unavailable', fields: unavailable });
    const sent = new Map(limitKeys(s.deliveries).map((key) => [key, (sentTo.all(key, now - DAY_MS) as { n: number }[])[0].n]));
    for (const d of withinMailLimit(s.deliveries, sent, mailsPerRecipientPerDay)) {
      const due = firstAttempt(d, now);
      queue.run(id, d.kind, d.channel, d.to, d.limitKey ?? null, d.subject, d.text, due, due, now, d.messageId, d.language);
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
export function serveRequestWriter({ dataDir, ...policy }: { dataDir: string } & WritePolicy): void {
  const port = parentPort!;
  const db = openDatabase(dataDir);
  const write = requestWriter(db, policy);
  // Statements on this connection run synchronously: the transaction is done before the next message is read.
  const kysely = new Kysely<PortalDatabase>({ dialect: new NodeSqliteDialect(db) });
  let queue: { seq: number; items: NewRequest[]; sentAt: number }[] = [];
  // SQLite's busy wait sleeps on this thread, blocking nothing else; it is bounded so that a request is
  // answered (stored, or 503) within LOCK_WAIT_MS of being sent here, however long the lock is held.
  const waitAtMost = (ms: number) => db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(ms))}`);

  const flush = () => {
    // Recording deliveries runs through Kysely's promises: should one still hold a transaction open, wait for it.
    if (db.isTransaction) return void setImmediate(flush);
    const batches = queue;
    queue = [];
    if (batches.length === 0) return;
    let outcomes: Outcome<WriteOutcome>[];
    try {
      waitAtMost(Math.min(...batches.map((b) => b.sentAt)) + LOCK_WAIT_MS - Date.now());
      outcomes = write(batches.flatMap((b) => b.items));
    } catch (error) {
      const failed = plainError(sqliteError(error));
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
      waitAtMost(LOCK_WAIT_MS);
      void recordDeliveries(kysely, message.deliveries, message.now).then(
        () => port.postMessage({ seq, recorded: true } satisfies FromWriter),
        (error: unknown) => port.postMessage({ seq, failed: plainError(sqliteError(error)) } satisfies FromWriter),
      );
      return;
    }
    queue.push(message);
    // All messages already delivered in this turn join the same transaction.
    if (queue.length === 1) setImmediate(flush);
  });
  port.postMessage({ ready: true } satisfies FromWriter);
}
