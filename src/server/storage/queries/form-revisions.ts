import type { FormRevisionRow } from '../records';
import type { Db } from './requests';

/**
 * Keeps the revisions of today's forms (one row per distinct content, whoever stored it first), and
 * gives each request stored without one its variant's revision: rows of before version 8, or of an
 * instance of an older release still running during an upgrade. Returns how many requests it gave one.
 */
export async function registerFormRevisions(db: Db, revisions: readonly Omit<FormRevisionRow, 'created_at'>[], now: number): Promise<number> {
  if (revisions.length === 0) return 0;
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('form_revisions')
      .values(revisions.map((r) => ({ ...r, created_at: now })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    let adopted = 0;
    for (const { id, variant } of revisions) {
      const { numUpdatedRows } = await tx
        .updateTable('requests')
        .set({ form_revision: id })
        .where('form_revision', 'is', null)
        .where('variant', '=', variant)
        .executeTakeFirst();
      adopted += Number(numUpdatedRows);
    }
    return adopted;
  });
}

export function formRevisions(db: Db, ids: readonly string[]): Promise<FormRevisionRow[]> {
  return ids.length === 0 ? Promise.resolve([]) : db.selectFrom('form_revisions').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Every revision, oldest first (the move to PostgreSQL copies them before the requests that name them). */
export function allFormRevisions(db: Db): Promise<FormRevisionRow[]> {
  return db.selectFrom('form_revisions').selectAll().orderBy('created_at').orderBy('id').execute();
}
