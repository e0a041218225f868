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

/** Removes requests with their photos' rows and outbox rows, in one transaction; returns what went. */
export async function eraseRequestRows(db: Db, ids: readonly number[]): Promise<{ requests: number; photos: string[]; mails: string[] }> {
  if (ids.length === 0) return { requests: 0, photos: [], mails: [] };
  return db.transaction().execute(async (tx) => {
    const mails = await tx.deleteFrom('outbox').where('request_id', 'in', ids).returning(['id', 'message_id']).execute();
    const photos = await tx.deleteFrom('photos').where('request_id', 'in', ids).returning('name').execute();
    const { numDeletedRows } = await tx.deleteFrom('requests').where('id', 'in', ids).executeTakeFirst();
    return { requests: Number(numDeletedRows), photos: photos.map((p) => p.name), mails: mails.map(messageIdOf) };
  });
}

export async function eraseMailRows(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { numDeletedRows } = await db.deleteFrom('outbox').where('id', 'in', ids).executeTakeFirst();
  return Number(numDeletedRows);
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

export async function rewriteMail(db: Db, id: number, subject: string, body: string): Promise<void> {
  await db.updateTable('outbox').set({ subject, body }).where('id', '=', id).execute();
}
