import { readFile, stat, writeFile } from 'node:fs/promises';
import { PhotoRowsStore } from '../photo-rows-store';
import type { PhotoStore } from '../photo-store';
import { evictUnclaimedRows, insertPhotoRow, photoNames, removeOverShareRows, removeUnclaimedRows } from '../queries/photo-rows';
import type { Db } from '../queries/requests';
import type { PhotoRow } from '../records';

const missing = (error: NodeJS.ErrnoException) => {
  if (error.code === 'ENOENT') return undefined;
  throw error;
};

/** SQLite keeps a photo's bytes as a file in DATA_DIR/photos, its row in the database. */
export class SqlitePhotos extends PhotoRowsStore implements PhotoStore {
  async add(tempPath: string, extension: 'jpg' | 'png', owner: string, now = Date.now()): Promise<{ name: string; bytes: number }> {
    const { name, bytes } = await this.folder.commit(tempPath, extension);
    try {
      await insertPhotoRow(this.db, { name, created_at: now, request_id: null, owner, bytes });
    } catch (error) {
      await this.folder.remove(this.folder.pathOf(name));
      throw error;
    }
    return { name, bytes };
  }

  read(name: string): Promise<Buffer | undefined> {
    return readFile(this.folder.pathOf(name)).catch(missing);
  }

  async size(name: string): Promise<number | undefined> {
    return (await stat(this.folder.pathOf(name)).catch(missing))?.size;
  }

  async removeUnclaimedBefore(cutoff: number): Promise<number> {
    const names = await removeUnclaimedRows(this.db, cutoff);
    await this.removeFiles(names);
    return names.length;
  }

  async removeOverShareBefore(cutoff: number, shareBytes: number): Promise<number> {
    const names = await removeOverShareRows(this.db, cutoff, shareBytes);
    await this.removeFiles(names);
    return names.length;
  }

  async evictUnclaimed(bytes: number, before: number): Promise<{ evicted: number; oldestLeft: number | undefined }> {
    const { names, oldestLeft } = await evictUnclaimedRows(this.db, bytes, before);
    await this.removeFiles(names);
    return { evicted: names.length, oldestLeft };
  }

  /** Removes the files of photos whose rows are gone (retention, erasure). */
  async removeFiles(names: readonly string[]): Promise<void> {
    await Promise.all(names.map((name) => this.folder.remove(this.folder.pathOf(name))));
  }

  import(rows: readonly (PhotoRow & { data: Buffer })[]): Promise<number> {
    return this.db.transaction().execute((tx) => this.insert(tx, rows));
  }

  /**
   * Rows and their files, the files first (a row never names a missing file), inside the caller's
   * transaction; a name that has a file already is left as it is.
   */
  async insert(tx: Db, rows: readonly (PhotoRow & { data: Buffer })[]): Promise<number> {
    let inserted = 0;
    for (const { data, ...row } of rows) {
      const written = await writeFile(this.folder.pathOf(row.name), data, { mode: 0o600, flag: 'wx' }).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') return false;
          throw error;
        },
      );
      if (!written) continue;
      await insertPhotoRow(tx, row);
      inserted++;
    }
    return inserted;
  }

  async tidy(minAgeMs: number): Promise<void> {
    await this.folder.removeStrays(await photoNames(this.db), minAgeMs);
  }
}
