import type { Db } from './database';

/** The photos table: which stored photos exist and which request, if any, uses each. */
export class PhotoRegistry {
  private readonly insert;
  private readonly removeStale;
  private readonly select;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO photos (name, created_at) VALUES (?, ?)');
    this.removeStale = db.prepare('DELETE FROM photos WHERE request_id IS NULL AND created_at < ? RETURNING name');
    this.select = db.prepare('SELECT name FROM photos');
  }

  register(name: string, now = Date.now()): void {
    this.insert.run(name, now);
  }

  /** Forgets unused photos registered before `cutoff` and returns their names (the caller removes the files). */
  forgetUnusedBefore(cutoff: number): string[] {
    return (this.removeStale.all(cutoff) as { name: string }[]).map((r) => r.name);
  }

  allNames(): Set<string> {
    return new Set((this.select.all() as { name: string }[]).map((r) => r.name));
  }
}
