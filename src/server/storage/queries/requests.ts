import type { Kysely } from 'kysely';
import type { StoredRequest } from '../records';
import type { PortalDatabase } from '../schema';

export type Db = Kysely<PortalDatabase>;

export const REQUEST_COLUMNS = ['id', 'reference', 'brand', 'variant', 'locale', 'payload', 'idempotency_key', 'payload_hash', 'created_at', 'form_revision'] as const;

export function requestByKey(db: Db, key: string, brand: string): Promise<StoredRequest | undefined> {
  return db.selectFrom('requests').select(REQUEST_COLUMNS).where('idempotency_key', '=', key).where('brand', '=', brand).executeTakeFirst();
}

export function requestByReference(db: Db, reference: string): Promise<StoredRequest | undefined> {
  return db.selectFrom('requests').select(REQUEST_COLUMNS).where('reference', '=', reference).executeTakeFirst();
}

export function requestsAfter(db: Db, afterId: number, limit: number): Promise<StoredRequest[]> {
  return db.selectFrom('requests').select(REQUEST_COLUMNS).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export function requestsByIds(db: Db, ids: readonly number[]): Promise<StoredRequest[]> {
  return ids.length === 0 ? Promise.resolve([]) : db.selectFrom('requests').select(REQUEST_COLUMNS).where('id', 'in', ids).orderBy('id').execute();
}

export async function requestCount(db: Db): Promise<number> {
  const { n } = await db.selectFrom('requests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(n);
}
