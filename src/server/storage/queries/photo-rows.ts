import type { PhotoRow } from '../records';
import type { Db } from './requests';

/**
 * Bytes of unclaimed photos: everyone's, those of one owner, and those of owners whose text starts
 * with each of `groups` (the storage quotas; the caller makes owners so, server/client-key.ts photoOwner:
 * they hold no `%` or `_`, so a group needs no escaping, which the backends would spell differently).
 */
export async function unclaimedBytes(db: Db, owner: string, groups: readonly string[]): Promise<UnclaimedBytes> {
  const row = await db
    .selectFrom('photos')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('owner', '=', owner).then(eb.ref('bytes')).end()), eb.lit(0)).as('mine'),
      ...groups.map((group, i) => eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('owner', 'like', `${group}%`).then(eb.ref('bytes')).end()), eb.lit(0)).as(`g${i}`)),
    ])
    .where('request_id', 'is', null)
    .executeTakeFirstOrThrow();
  const sums = row as unknown as Record<string, number | string>;
  return { total: Number(row.total), mine: Number(row.mine), groups: groups.map((_, i) => Number(sums[`g${i}`])) };
}

export interface UnclaimedBytes {
  total: number;
  mine: number;
  /** Per group asked for, in its order. */
  groups: number[];
}

/** What making room did: photos removed, and when the oldest unclaimed photo left was made (none: none left). */
export interface Eviction {
  names: string[];
  oldestLeft: number | undefined;
}

/**
 * Removes the rows of unclaimed photos made before `before` until at least `bytes` are freed (none when
 * those are too few): those of the provider block holding the most unclaimed bytes first (photoOwner's first part),
 * its oldest first, then the next one's. A flood spread over many networks makes room from itself, not
 * from the few photos of a customer's open form; a photo made since `before` is never taken (the
 * customer's form may still be open). A photo a request claims meanwhile is not among them: its row no
 * longer matches, and a submit naming a removed one gets 422 (choose it again).
 */
export async function evictUnclaimedRows(db: Db, bytes: number, before: number): Promise<Eviction> {
  const owners = await db
    .selectFrom('photos')
    .select((eb) => ['owner', eb.fn.sum<number>('bytes').as('bytes')])
    .where('request_id', 'is', null)
    .where('created_at', '<', before)
    .groupBy('owner')
    .execute();
  const blocks = new Map<string | null, number>();
  for (const { owner, bytes: held } of owners) {
    const block = blockOf(owner);
    blocks.set(block, (blocks.get(block) ?? 0) + Number(held));
  }
  const chosen: string[] = [];
  let freed = 0;
  for (const [block] of [...blocks].sort((a, b) => b[1] - a[1])) {
    if (freed >= bytes) break;
    const oldest = await db
      .selectFrom('photos')
      .select(['name', 'bytes'])
      .where('request_id', 'is', null)
      .where('created_at', '<', before)
      .where((eb) => (block === null ? eb('owner', 'is', null) : block.endsWith(' ') ? eb('owner', 'like', `${block}%`) : eb('owner', '=', block)))
      .orderBy('created_at')
      .orderBy('name')
      .limit(100)
      .execute();
    for (const { name, bytes: size } of oldest) {
      if (freed >= bytes) break;
      chosen.push(name);
      freed += Number(size);
    }
  }
  // Too few to make the room asked for: none goes (removing some would refuse the upload all the same).
  const enough = freed >= bytes;
  const rows = !enough || chosen.length === 0 ? [] : await db.deleteFrom('photos').where('request_id', 'is', null).where('name', 'in', chosen).returning('name').execute();
  const left = await db.selectFrom('photos').select((eb) => eb.fn.min<number>('created_at').as('oldest')).where('request_id', 'is', null).executeTakeFirst();
  return { names: rows.map((r) => r.name), oldestLeft: left?.oldest == null ? undefined : Number(left.oldest) };
}

/** The widest part of an owner (`<provider> …`, as client-key.ts photoOwner makes it, with its space); an owner without one is its own. */
function blockOf(owner: string | null): string | null {
  if (owner === null) return null;
  const space = owner.indexOf(' ');
  return space < 0 ? owner : owner.slice(0, space + 1);
}

/** Removes the rows of photos no request claimed before `cutoff`; returns their names. */
export async function removeUnclaimedRows(db: Db, cutoff: number): Promise<string[]> {
  const rows = await db.deleteFrom('photos').where('request_id', 'is', null).where('created_at', '<', cutoff).returning('name').execute();
  return rows.map((r) => r.name);
}

/**
 * Removes the rows of unclaimed photos made before `cutoff` by owners whose unclaimed photos
 * together reach `shareBytes` (a client at its share keeps them a shorter time); returns their names.
 */
export async function removeOverShareRows(db: Db, cutoff: number, shareBytes: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('photos')
    .where('request_id', 'is', null)
    .where('created_at', '<', cutoff)
    .where('owner', 'in', (eb) =>
      eb.selectFrom('photos').select('owner').where('request_id', 'is', null).groupBy('owner').having((h) => h.fn.sum<number>('bytes'), '>=', shareBytes),
    )
    .returning('name')
    .execute();
  return rows.map((r) => r.name);
}

export async function photoNames(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom('photos').select('name').execute()).map((r) => r.name));
}

export function insertPhotoRow(db: Db, row: PhotoRow): Promise<unknown> {
  return db.insertInto('photos').values(row).execute();
}
