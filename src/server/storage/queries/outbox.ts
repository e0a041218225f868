import type { ExpressionBuilder } from 'kysely';
import type { DeliveryUpdate, DueDelivery, OutboxFigures, Undelivered } from '../records';
import type { PortalDatabase } from '../schema';
import type { Db } from './requests';

type Pending = ExpressionBuilder<PortalDatabase, 'outbox'>;

/** Not sent, and not given up on. */
export const pending = (eb: Pending) => eb.and([eb('outbox.sent_at', 'is', null), eb('outbox.failed_at', 'is', null)]);

/** What a due delivery is handed over with: its row and the request it carries. */
export function dueSelection(db: Db) {
  return db
    .selectFrom('outbox')
    .innerJoin('requests', 'requests.id', 'outbox.request_id')
    .select((eb) => [
      'outbox.id',
      'outbox.kind',
      'outbox.recipient',
      'outbox.subject',
      'outbox.body',
      'outbox.attempts',
      // Rows queued before they kept the time: their request's.
      eb.fn.coalesce('outbox.queued_at', 'requests.created_at').as('queuedAt'),
      // Rows queued before they kept a message id: the one derived from their id, as sent then.
      eb.fn.coalesce('outbox.message_id', eb(eb.val('outbox-'), '||', eb.cast<string>('outbox.id', 'text'))).as('messageId'),
      'requests.reference',
      'requests.brand',
      'requests.locale',
      'requests.variant',
      'requests.payload',
      'requests.form_revision as formRevision',
      'outbox.language',
    ]);
}

/** Due rows of a channel, the longest due first, none of `busy` (under way in this process). */
export function dueDeliveries(db: Db, channel: string, limit: number, busy: ReadonlySet<number>, now: number): Promise<DueDelivery[]> {
  return dueSelection(db)
    .where((eb) => eb.and([pending(eb), eb('outbox.channel', '=', channel), eb('outbox.next_attempt_at', '<=', now)]))
    .$if(busy.size > 0, (qb) => qb.where('outbox.id', 'not in', [...busy]))
    .orderBy('outbox.next_attempt_at')
    .orderBy('outbox.id')
    .limit(limit)
    .execute() as Promise<DueDelivery[]>;
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
