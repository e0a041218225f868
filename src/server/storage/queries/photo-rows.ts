import type { PhotoRow } from '../records';
import type { Db } from './requests';

/**
 * Bytes of unclaimed photos: everyone's, those of one owner, and those of owners whose text starts
 * with `group` (the storage quotas; the caller makes owners so, server/client-key.ts photoOwner: they
 * hold no `%` or `_`, so `group` needs no escaping, which the backends would spell differently).
 */
export async function unclaimedBytes(db: Db, owner: string, group: string): Promise<UnclaimedBytes> {
  const row = await db
    .selectFrom('photos')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('owner', '=', owner).then(eb.ref('bytes')).end()), eb.lit(0)).as('mine'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('owner', 'like', `${group}%`).then(eb.ref('bytes')).end()), eb.lit(0)).as('group'),
    ])
    .where('request_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), mine: Number(row.mine), group: Number(row.group) };
}

export interface UnclaimedBytes {
  total: number;
  mine: number;
  group: number;
}

/**
 * Removes the rows of unclaimed photos until at least `bytes` are freed (or none is left): those of the
 * network holding the most unclaimed bytes first, its oldest first, then the next network's. A flood from
 * many networks makes room from itself, not from the few photos of a customer's open form. Returns their
 * names. A photo a request claims meanwhile is not among them: its row no longer matches, and a submit
 * naming a removed one gets 422 (upload again).
 */
export async function evictUnclaimedRows(db: Db, bytes: number): Promise<string[]> {
  const owners = await db
    .selectFrom('photos')
    .select((eb) => ['owner', eb.fn.sum<number>('bytes').as('bytes')])
    .where('request_id', 'is', null)
    .groupBy('owner')
    .execute();
  const networks = new Map<string | null, number>();
  for (const { owner, bytes: held } of owners) {
    const network = networkOf(owner);
    networks.set(network, (networks.get(network) ?? 0) + Number(held));
  }
  const chosen: string[] = [];
  let freed = 0;
  for (const [network] of [...networks].sort((a, b) => b[1] - a[1])) {
    if (freed >= bytes) break;
    const oldest = await db
      .selectFrom('photos')
      .select(['name', 'bytes'])
      .where('request_id', 'is', null)
      .where((eb) => (network === null ? eb('owner', 'is', null) : network.endsWith(' ') ? eb('owner', 'like', `${network}%`) : eb('owner', '=', network)))
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
  if (chosen.length === 0) return [];
  const rows = await db.deleteFrom('photos').where('request_id', 'is', null).where('name', 'in', chosen).returning('name').execute();
  return rows.map((r) => r.name);
}

/** The network part of an owner (`<network> <client>`, as client-key.ts photoOwner makes it, with its space); an owner without one is its own. */
function networkOf(owner: string | null): string | null {
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
