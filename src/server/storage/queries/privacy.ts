import { messageIdOf, type OutboxRow, type PhotoRow } from '../records';
import type { Db } from './requests';

/** Requests created before `cutoff` whose deliveries all ended (sent or given up) before it. */
export async function expiredRequests(db: Db, cutoff: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('requests as r')
    .select('r.id')
    .where('r.created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('outbox as o')
            .select('o.id')
            .whereRef('o.request_id', '=', 'r.id')
            .where((eb) =>
              eb.or([eb.and([eb('o.sent_at', 'is', null), eb('o.failed_at', 'is', null)]), eb(eb.fn.coalesce('o.sent_at', 'o.failed_at'), '>=', cutoff)]),
            ),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Removes what is kept in rows beside the outbox rows about to go (PostgreSQL's mail copies), in their
 * transaction; how many.
 */
export type RowsBeside = (tx: Db, ids: readonly number[]) => Promise<number>;

/**
 * Removes requests with their photos' rows and outbox rows, in one transaction (and what `beside` removes
 * of those requests, first); returns what went.
 */
export async function eraseRequestRows(
  db: Db,
  ids: readonly number[],
  beside?: RowsBeside,
): Promise<{ requests: number; photos: string[]; mails: string[]; beside: number }> {
  if (ids.length === 0) return { requests: 0, photos: [], mails: [], beside: 0 };
  return db.transaction().execute(async (tx) => {
    const besides = beside ? await beside(tx, ids) : 0;
    const mails = await tx.deleteFrom('outbox').where('request_id', 'in', ids).returning(['id', 'message_id']).execute();
    const photos = await tx.deleteFrom('photos').where('request_id', 'in', ids).returning('name').execute();
    const { numDeletedRows } = await tx.deleteFrom('requests').where('id', 'in', ids).executeTakeFirst();
    return { requests: Number(numDeletedRows), photos: photos.map((p) => p.name), mails: mails.map(messageIdOf), beside: besides };
  });
}

/** Removes outbox rows (and what `beside` removes of those rows, first, in the same transaction); how many of each. */
export async function eraseMailRows(db: Db, ids: readonly number[], beside?: RowsBeside): Promise<{ mails: number; beside: number }> {
  if (ids.length === 0) return { mails: 0, beside: 0 };
  return db.transaction().execute(async (tx) => {
    const besides = beside ? await beside(tx, ids) : 0;
    const { numDeletedRows } = await tx.deleteFrom('outbox').where('id', 'in', ids).executeTakeFirst();
    return { mails: Number(numDeletedRows), beside: besides };
  });
}

/** Which of these stored message ids name a stored outbox row (rows without one are named `outbox-<id>`, messageIdOf). */
export async function storedMessageIds(db: Db, messageIds: readonly string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const derived = messageIds.flatMap((id) => /^outbox-(\d+)$/.exec(id)?.[1] ?? []).map(Number);
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'message_id'])
    .where((eb) => eb.or([eb('message_id', 'in', messageIds), ...(derived.length > 0 ? [eb.and([eb('message_id', 'is', null), eb('id', 'in', derived)])] : [])]))
    .execute();
  return new Set(rows.map(messageIdOf));
}

export function deliveriesOf(db: Db, ids: readonly number[]): Promise<OutboxRow[]> {
  return ids.length === 0 ? Promise.resolve([]) : db.selectFrom('outbox').selectAll().where('request_id', 'in', ids).orderBy('id').execute();
}

export function mailsByLimitKey(db: Db, key: string): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().where('limit_key', '=', key).orderBy('id').execute();
}

export function photosOfRequests(db: Db, ids: readonly number[]): Promise<PhotoRow[]> {
  return ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('photos').select(['name', 'created_at', 'request_id', 'owner', 'bytes']).where('request_id', 'in', ids).orderBy('name').execute();
}

export async function rewriteRequest(db: Db, id: number, payload: string): Promise<boolean> {
  const { numUpdatedRows } = await db.updateTable('requests').set({ payload }).where('id', '=', id).executeTakeFirst();
  return numUpdatedRows > 0n;
}

export async function deliveryHolds(db: Db, id: number, subject: string, body: string): Promise<boolean> {
  const row = await db.selectFrom('outbox').select('id').where('id', '=', id).where('subject', '=', subject).where('body', '=', body).executeTakeFirst();
  return row !== undefined;
}

/** Rewrites a delivery's text, and removes what `beside` removes of it (its copy as sent), in one transaction; how many of those. */
export function rewriteMail(db: Db, id: number, subject: string, body: string, beside?: RowsBeside): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await tx.updateTable('outbox').set({ subject, body }).where('id', '=', id).execute();
    return beside ? beside(tx, [id]) : 0;
  });
}
