import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { PhotoRowsStore } from '../photo-rows-store';
import type { PhotoStore } from '../photo-store';
import { evictUnclaimedRows, removeOverShareRows, removeUnclaimedRows } from '../queries/photo-rows';
import type { Db } from '../queries/requests';
import type { PhotoRow } from '../records';
import type { PostgresDatabase } from './schema';

/** PostgreSQL keeps a photo's bytes in its row; the folder only holds uploads while they are received. */
export class PostgresPhotos extends PhotoRowsStore implements PhotoStore {
  async add(tempPath: string, extension: 'jpg' | 'png', owner: string, now = Date.now()): Promise<{ name: string; bytes: number }> {
    const data = await readFile(tempPath);
    const name = `${randomUUID()}.${extension}`;
    await this.rows(this.db).insertInto('photos').values({ name, created_at: now, request_id: null, owner, bytes: data.length, data }).execute();
    await this.folder.remove(tempPath);
    return { name, bytes: data.length };
  }

  async read(name: string): Promise<Buffer | undefined> {
    return (await this.rows(this.db).selectFrom('photos').select('data').where('name', '=', name).executeTakeFirst())?.data;
  }

  async size(name: string): Promise<number | undefined> {
    const row = await this.rows(this.db).selectFrom('photos').select(sql<number>`octet_length(data)`.as('n')).where('name', '=', name).executeTakeFirst();
    return row?.n;
  }

  /** Bytes of these photos as kept. */
  async bytesOf(names: readonly string[]): Promise<number> {
    if (names.length === 0) return 0;
    const row = await this.rows(this.db)
      .selectFrom('photos')
      .select(sql<number>`coalesce(sum(octet_length(data)), 0)::bigint`.as('n'))
      .where('name', 'in', names)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async removeUnclaimedBefore(cutoff: number): Promise<number> {
    return (await removeUnclaimedRows(this.db, cutoff)).length;
  }

  async removeOverShareBefore(cutoff: number, shareBytes: number): Promise<number> {
    return (await removeOverShareRows(this.db, cutoff, shareBytes)).length;
  }

  async evictUnclaimed(bytes: number, before: number): Promise<{ evicted: number; oldestLeft: number | undefined }> {
    const { names, oldestLeft } = await evictUnclaimedRows(this.db, bytes, before);
    return { evicted: names.length, oldestLeft };
  }

  import(rows: readonly (PhotoRow & { data: Buffer })[]): Promise<number> {
    return this.insert(this.db, rows, true);
  }

  /** Rows with their bytes, inside `tx` when the caller has one; with `skipExisting`, names already held are left. */
  async insert(tx: Db, rows: readonly (PhotoRow & { data: Buffer })[], skipExisting: boolean): Promise<number> {
    let inserted = 0;
    // A few photos per insert: few round trips, without a whole batch's bytes in one message.
    for (let at = 0; at < rows.length; at += 20) {
      const insert = this.rows(tx).insertInto('photos').values(rows.slice(at, at + 20));
      const { numInsertedOrUpdatedRows } = await (skipExisting ? insert.onConflict((oc) => oc.column('name').doNothing()) : insert).executeTakeFirst();
      inserted += Number(numInsertedOrUpdatedRows ?? 0);
    }
    return inserted;
  }

  async tidy(minAgeMs: number): Promise<void> {
    // Nothing kept in the folder belongs to a row: what a crash left there goes once it is old enough.
    await this.folder.removeStrays(new Set(), minAgeMs);
  }

  private rows(db: Db): Kysely<PostgresDatabase> {
    return db as unknown as Kysely<PostgresDatabase>;
  }
}
