import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncPath } from './fsync-path';

const TEMP_PREFIX = '.tmp-';

/**
 * The folder of stored photos (DATA_DIR/photos, never served). Files appear
 * under their final name only once complete and fsynced; everything in
 * progress is a temp file that a restart may remove.
 */
/** The stored names: a generated UUID and the format. Anything else is never a photo. */
export const STORED_PHOTO = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png)$/;

/** A stored photo's media type, from its name: the intake re-encodes every photo to JPEG or PNG. */
export const storedPhotoType = (name: string): string => (name.endsWith('.png') ? 'image/png' : 'image/jpeg');

export class PhotoFolder {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }

  tempPath(): string {
    return join(this.dir, `${TEMP_PREFIX}${randomUUID()}`);
  }

  /** fsyncs a finished temp file and moves it to a new generated name (`<uuid>.jpg|png`, never the client's); returns it and its size. */
  async commit(tempPath: string, extension: 'jpg' | 'png'): Promise<{ name: string; bytes: number }> {
    const name = `${randomUUID()}.${extension}`;
    const file = await open(tempPath, 'r');
    let bytes: number;
    try {
      bytes = (await file.stat()).size;
      // The encoder creates its file with the default mode; a photo of someone's home is owner-only.
      await file.chmod(0o600);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tempPath, join(this.dir, name));
    // The rename itself is durable only once the directory entry is synced.
    await fsyncPath(this.dir);
    return { name, bytes };
  }

  pathOf(name: string): string {
    return join(this.dir, name);
  }

  /** Removes a file of this folder (a stored photo's path or a temp path); missing is fine. */
  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * Start-up cleanup: temp files left by a crash, and photo files the
   * database does not know (a crash between rename and registration) once
   * they are older than `minAgeMs`.
   */
  async removeStrays(known: Set<string>, minAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const entry of await readdir(this.dir)) {
      const path = join(this.dir, entry);
      const stray = entry.startsWith(TEMP_PREFIX) || (!known.has(entry) && now - (await stat(path)).mtimeMs > minAgeMs);
      if (stray) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
