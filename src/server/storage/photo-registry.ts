import type { Db } from './database';

/** The photos table: which stored photos exist and which request, if any, uses each. */
export class PhotoRegistry {
  private readonly insert;
  private readonly removeStale;
  private readonly select;

  private readonly unclaimed;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO photos (name, created_at, owner, bytes) VALUES (?, ?, ?, ?)');
    this.unclaimed = db.prepare(
      `SELECT coalesce(sum(bytes), 0) AS total, coalesce(sum(CASE WHEN owner = ? THEN bytes END), 0) AS mine
       FROM photos WHERE request_id IS NULL`,
    );
    this.removeStale = db.prepare('DELETE FROM photos WHERE request_id IS NULL AND created_at < ? RETURNING name');
    this.select = db.prepare('SELECT name FROM photos');
  }

  /** Records a stored photo as unclaimed, uploaded by `owner` (the client's address), of `bytes` on disk. */
  register(name: string, owner: string, bytes: number, now = Date.now()): void {
    this.insert.run(name, now, owner, bytes);
  }

  /** Bytes of unclaimed photos: all of them, and those of one owner. */
  unclaimedBytes(owner: string): { total: number; mine: number } {
    const [row] = this.unclaimed.all(owner) as { total: number; mine: number }[];
    return row;
  }

  /** Forgets unused photos registered before `cutoff` and returns their names (the caller removes the files). */
  forgetUnusedBefore(cutoff: number): string[] {
    return (this.removeStale.all(cutoff) as { name: string }[]).map((r) => r.name);
  }

  allNames(): Set<string> {
    return new Set((this.select.all() as { name: string }[]).map((r) => r.name));
  }
}
