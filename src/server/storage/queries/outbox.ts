import { sql, type ExpressionBuilder } from 'kysely';
import type { DeliveryUpdate, DueDelivery, OutboxFigures, Undelivered } from '../records';
import type { PortalDatabase } from '../schema';
import type { Db } from './requests';

type Pending = ExpressionBuilder<PortalDatabase, 'outbox'>;

/** Not sent, and not given up on. */
export const pending = (eb: Pending) => eb.and([eb('outbox.sent_at', 'is', null), eb('outbox.failed_at', 'is', null)]);

/**
 * What a due delivery is handed over with, its row (o) and the request it carries (r): SQL that both
 * backends read alike, named as DueDelivery names it. The one list for SQLite's query below and
 * PostgreSQL's lease (postgres/lease.ts).
 */
const DUE_COLUMNS: Record<keyof DueDelivery, string> = {
  id: 'o.id',
  kind: 'o.kind',
  recipient: 'o.recipient',
  subject: 'o.subject',
  body: 'o.body',
  attempts: 'o.attempts',
  // Rows queued before they kept the time: their request's.
  queuedAt: 'COALESCE(o.queued_at, r.created_at)',
  // Rows queued before they kept a message id: the one derived from their id, as sent then.
  messageId: "COALESCE(o.message_id, 'outbox-' || o.id)",
  reference: 'r.reference',
  brand: 'r.brand',
  locale: 'r.locale',
  variant: 'r.variant',
  payload: 'r.payload',
  formRevision: 'r.form_revision',
  language: 'o.language',
};

/** The select list of a due delivery, over `outbox o` joined with `requests r`. */
export const DUE_SELECT = Object.entries(DUE_COLUMNS)
  .map(([name, expression]) => `${expression} AS "${name}"`)
  .join(', ');

/** Due rows of a channel, the longest due first, none of `busy` (under way in this process). */
export async function dueDeliveries(db: Db, channel: string, limit: number, busy: ReadonlySet<number>, now: number): Promise<DueDelivery[]> {
  const notBusy = busy.size > 0 ? sql`AND o.id NOT IN (${sql.join([...busy])})` : sql``;
  const { rows } = await sql<DueDelivery>`SELECT ${sql.raw(DUE_SELECT)} FROM outbox o JOIN requests r ON r.id = o.request_id
    WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.channel = ${channel} AND o.next_attempt_at <= ${now} ${notBusy}
    ORDER BY o.next_attempt_at, o.id LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * Records attempts together, in one transaction: one commit for many. A row another instance has
 * recorded as sent meanwhile (this attempt outlasted its lease) stays sent.
 */
export async function recordDeliveries(db: Db, updates: readonly DeliveryUpdate[], now: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const u of updates) {
      const change = u.delivered
        ? { sent_at: now, attempts: (eb: Pending) => eb('attempts', '+', 1), last_error: null }
        : { attempts: u.attempts, next_attempt_at: u.nextAttemptAt, last_error: u.lastError, failed_at: u.failedForGood ? now : null };
      await tx
        .updateTable('outbox')
        .set(change as never)
        .where('id', '=', u.id)
        .where('sent_at', 'is', null)
        .execute();
    }
  });
}

/** Pending and failed deliveries, by destination (brand, kind, recipient), oldest first. */
export function undelivered(db: Db): Promise<Undelivered[]> {
  return db
    .selectFrom('outbox')
    .innerJoin('requests', 'requests.id', 'outbox.request_id')
    .select([
      'requests.brand',
      'outbox.kind',
      'outbox.recipient',
      'requests.reference',
      'outbox.attempts',
      'outbox.last_error as lastError',
      'outbox.next_attempt_at as nextAttemptAt',
      'outbox.failed_at as failedAt',
    ])
    .where('outbox.sent_at', 'is', null)
    .orderBy('requests.brand')
    .orderBy('outbox.kind')
    .orderBy('outbox.recipient')
    .orderBy('outbox.id')
    .execute();
}

export async function requeue(db: Db, reference: string, kinds: readonly string[], now: number): Promise<number | undefined> {
  const request = await db.selectFrom('requests').select('id').where('reference', '=', reference).executeTakeFirst();
  if (!request) return undefined;
  const { numUpdatedRows } = await db
    .updateTable('outbox')
    .set({ sent_at: null, failed_at: null, attempts: 0, last_error: null, next_attempt_at: now, due_at: now, queued_at: now })
    .where('request_id', '=', request.id)
    .where((eb) => eb.or([eb('kind', 'in', [...kinds]), eb('failed_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(numUpdatedRows);
}

/** Every delivery that failed for good (at or after `since`) queued again, as new: retried until DELIVERY_GIVE_UP_HOURS from now. */
export async function requeueFailed(db: Db, since: number | undefined, now: number): Promise<number> {
  const { numUpdatedRows } = await db
    .updateTable('outbox')
    .set({ failed_at: null, attempts: 0, last_error: null, next_attempt_at: now, due_at: now, queued_at: now })
    .where('failed_at', 'is not', null)
    .where('sent_at', 'is', null)
    .$if(since !== undefined, (qb) => qb.where('failed_at', '>=', since!))
    .executeTakeFirst();
  return Number(numUpdatedRows);
}

export async function outboxFigures(db: Db): Promise<OutboxFigures> {
  const byKind = async (state: 'pending' | 'failed') =>
    Object.fromEntries(
      (
        await db
          .selectFrom('outbox')
          .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
          .where((eb) => (state === 'pending' ? pending(eb) : eb('failed_at', 'is not', null)))
          .groupBy('kind')
          .execute()
      ).map((r) => [r.kind, Number(r.n)]),
    );
  // Counted from when each became due: a confirmation held back by the brand's mail cap is not late
  // before its hour, and an alert on the age must not fire for it. Rows an older release queued have no due_at.
  const oldest = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.min(eb.fn.coalesce('due_at', 'queued_at', 'next_attempt_at')).as('at'))
    .where(pending)
    .executeTakeFirst();
  return { pendingByKind: await byKind('pending'), failedByKind: await byKind('failed'), oldestPendingAt: oldest?.at ?? null };
}

/** Deliveries queued since `since`, and deliveries sent since then. */
export async function deliveriesSince(db: Db, since: number): Promise<{ queued: number; sent: number }> {
  const count = async (column: 'queued_at' | 'sent_at') =>
    Number((await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where(column, '>=', since).executeTakeFirstOrThrow()).n);
  return { queued: await count('queued_at'), sent: await count('sent_at') };
}
