import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PhotoFolder } from '../photos/photo-folder';
import type { Sql } from './sql';

/**
 * The stored photos: a row each (who uploaded it and its size while no
 * request claims it, then the request), and the bytes. With SQLite the
 * bytes are files in DATA_DIR/photos; with PostgreSQL they are in the row,
 * so every instance can serve and attach every photo. The folder is then
 * only where uploads are received and re-encoded.
 */
export class StoredPhotos {
  private readonly inRows: boolean;

  constructor(
    private readonly sql: Sql,
    readonly folder: PhotoFolder,
  ) {
    this.inRows = sql.dialect === 'postgres';
  }

  /** Stores a finished temp file under a new generated name, unclaimed, of `owner`; returns the name and size. */
  async add(tempPath: string, extension: 'jpg' | 'png', owner: string, now = Date.now()): Promise<{ name: string; bytes: number }> {
    if (this.inRows) {
      const data = await readFile(tempPath);
      const name = `${randomUUID()}.${extension}`;
      await this.sql.run('INSERT INTO photos (name, created_at, owner, bytes, data) VALUES (?, ?, ?, ?, ?)', [name, now, owner, data.length, data]);
      await this.folder.remove(tempPath);
      return { name, bytes: data.length };
    }
    const { name, bytes } = await this.folder.commit(tempPath, extension);
    try {
      await this.sql.run('INSERT INTO photos (name, created_at, owner, bytes) VALUES (?, ?, ?, ?)', [name, now, owner, bytes]);
    } catch (error) {
      await this.folder.remove(this.folder.pathOf(name));
      throw error;
    }
    return { name, bytes };
  }

  /** A stored photo's bytes; undefined when it is not (or no longer) stored. */
  async read(name: string): Promise<Buffer | undefined> {
    if (this.inRows) {
      const [row] = await this.sql.all<{ data: Buffer }>('SELECT data FROM photos WHERE name = ?', [name]);
      return row?.data;
    }
    return readFile(this.folder.pathOf(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  /** Bytes of unclaimed photos: everyone's, and those of one owner (the storage quotas). */
  async unclaimedBytes(owner: string): Promise<{ total: number; mine: number }> {
    const [row] = await this.sql.all<{ total: number; mine: number }>(
      `SELECT CAST(coalesce(sum(bytes), 0) AS BIGINT) AS total, CAST(coalesce(sum(CASE WHEN owner = ? THEN bytes END), 0) AS BIGINT) AS mine
       FROM photos WHERE request_id IS NULL`,
      [owner],
    );
    return row;
  }

  /**
   * Forgets photos no request claimed before `cutoff` (abandoned forms). The
   * row goes first: from then on a submit naming the photo gets 422, so a
   * file is never removed under a request that claimed it.
   */
  async removeUnclaimedBefore(cutoff: number): Promise<number> {
    const rows = await this.sql.all<{ name: string }>('DELETE FROM photos WHERE request_id IS NULL AND created_at < ? RETURNING name', [cutoff]);
    await this.removeContent(rows.map((r) => r.name));
    return rows.length;
  }

  /** Removes the files of photos whose rows are gone (retention, erasure); returns how many. */
  async removeContent(names: readonly string[]): Promise<number> {
    if (this.inRows) return 0;
    await Promise.all(names.map((name) => this.folder.remove(this.folder.pathOf(name))));
    return names.length;
  }

  /**
   * Start-up cleanup: temp files a crash left, and photo files no row names
   * (a crash between rename and insert) once older than `minAgeMs`.
   */
  async tidy(minAgeMs: number): Promise<void> {
    const known = this.inRows ? new Set<string>() : new Set((await this.sql.all<{ name: string }>('SELECT name FROM photos')).map((r) => r.name));
    await this.folder.removeStrays(known, minAgeMs);
  }
}
