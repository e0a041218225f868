import type { Expression } from 'kysely';
import type { HeldRows } from '../port';
import type { StoredRequest } from '../records';
import { requestsByIds, type Db } from './requests';

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
export async function eraseRequestRows(db: Db, ids: readonly number[]): Promise<{ requests: number; photos: string[]; mails: number[] }> {
  if (ids.length === 0) return { requests: 0, photos: [], mails: [] };
  return db.transaction().execute(async (tx) => {
    const mails = await tx.deleteFrom('outbox').where('request_id', 'in', ids).returning('id').execute();
    const photos = await tx.deleteFrom('photos').where('request_id', 'in', ids).returning('name').execute();
    const { numDeletedRows } = await tx.deleteFrom('requests').where('id', 'in', ids).executeTakeFirst();
    return { requests: Number(numDeletedRows), photos: photos.map((p) => p.name), mails: mails.map((m) => m.id) };
  });
}

export async function eraseMailRows(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { numDeletedRows } = await db.deleteFrom('outbox').where('id', 'in', ids).executeTakeFirst();
  return Number(numDeletedRows);
}

/**
 * Requests given with this address as the customer's (`clientEmail`: the payload's client_email, as the
 * backend reads a JSON field), any case, with their photos and mails; and mails to the address about other requests.
 */
export async function subjectRows(db: Db, address: string, clientEmail: Expression<string>) {
  const wanted = address.trim().toLowerCase();
  const ids = (await db.selectFrom('requests').select('id').where((eb) => eb(eb.fn('lower', [clientEmail]), '=', wanted)).execute()).map((r) => r.id);
  const requests: HeldRows[] = [];
  for (const request of await requestsByIds(db, ids)) requests.push(await heldRows(db, request));
  const toAddress = await db.selectFrom('outbox').selectAll().where((eb) => eb(eb.fn('lower', ['recipient']), '=', wanted)).orderBy('id').execute();
  return { requests, otherMails: toAddress.filter((m) => !ids.includes(m.request_id)) };
}

/** A stored request with its photos' names and its outbox rows (mails and deliveries). */
export async function heldRows(db: Db, request: StoredRequest): Promise<HeldRows> {
  const photos = await db.selectFrom('photos').select('name').where('request_id', '=', request.id).orderBy('name').execute();
  const mails = await db.selectFrom('outbox').selectAll().where('request_id', '=', request.id).orderBy('id').execute();
  return { request, photos: photos.map((p) => p.name), mails };
}
