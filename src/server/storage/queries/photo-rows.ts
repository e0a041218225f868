import type { PhotoRow } from '../records';
import type { Db } from './requests';

/** Bytes of unclaimed photos: everyone's, and those of one owner (the storage quotas). */
export async function unclaimedBytes(db: Db, owner: string): Promise<{ total: number; mine: number }> {
  const row = await db
    .selectFrom('photos')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('owner', '=', owner).then(eb.ref('bytes')).end()), eb.lit(0)).as('mine'),
    ])
    .where('request_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), mine: Number(row.mine) };
}

/** Removes the rows of photos no request claimed before `cutoff`; returns their names. */
export async function removeUnclaimedRows(db: Db, cutoff: number): Promise<string[]> {
  const rows = await db.deleteFrom('photos').where('request_id', 'is', null).where('created_at', '<', cutoff).returning('name').execute();
  return rows.map((r) => r.name);
}

export async function photoNames(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom('photos').select('name').execute()).map((r) => r.name));
}

export function insertPhotoRow(db: Db, row: PhotoRow): Promise<unknown> {
  return db.insertInto('photos').values(row).execute();
}
