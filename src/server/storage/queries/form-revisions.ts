import type { FormRevisionRow, StoredRequest } from '../records';
import { REQUEST_COLUMNS, type Db } from './requests';

/** Keeps these revisions of forms (one row per distinct content, whoever stored it first). */
export async function registerFormRevisions(db: Db, revisions: readonly Omit<FormRevisionRow, 'created_at'>[], now: number): Promise<void> {
  if (revisions.length === 0) return;
  await db
    .insertInto('form_revisions')
    .values(revisions.map((r) => ({ ...r, created_at: now })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export function formRevisions(db: Db, ids: readonly string[]): Promise<FormRevisionRow[]> {
  return ids.length === 0 ? Promise.resolve([]) : db.selectFrom('form_revisions').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Every revision's id and form, oldest first, without its definition (what to read, when a request needs one). */
export function formRevisionList(db: Db): Promise<Omit<FormRevisionRow, 'definition'>[]> {
  return db.selectFrom('form_revisions').select(['id', 'variant', 'created_at']).orderBy('created_at').orderBy('id').execute();
}

/** Every revision, oldest first (the move to PostgreSQL copies them before the requests that name them). */
export function allFormRevisions(db: Db): Promise<FormRevisionRow[]> {
  return db.selectFrom('form_revisions').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Requests stored without a revision, by id after `afterId` (the partial index requests_unrevised finds them). */
export function unrevisedRequests(db: Db, afterId: number, limit: number): Promise<StoredRequest[]> {
  return db.selectFrom('requests').select(REQUEST_COLUMNS).where('form_revision', 'is', null).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

/** Gives these requests a revision, where they still have none; how many it gave one. */
export async function adoptFormRevision(db: Db, revision: string, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { numUpdatedRows } = await db.updateTable('requests').set({ form_revision: revision }).where('form_revision', 'is', null).where('id', 'in', ids).executeTakeFirst();
  return Number(numUpdatedRows);
}
