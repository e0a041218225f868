import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncPath } from './fsync-path';
import { mailFileName, storedId, type PlaceOutOfReach } from './mail-copies';

const TEMP_PREFIX = '.tmp-';

/** Files of the earlier naming, `<outbox id>-<kind>.eml`: found by the Message-ID they hold. */
const LEGACY_NAME = /^\d+-[a-z-]+\.eml$/;

/** The stored message id a file is named after; undefined: not a mail's file. */
function messageIdOfName(name: string): string | undefined {
  if (!name.endsWith('.eml')) return undefined;
  try {
    return decodeURIComponent(name.slice(0, -4));
  } catch {
    return undefined;
  }
}

const absent = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * A folder of .eml files, each named after its mail's stored message id
 * (mailFileName: ids change when rows move to PostgreSQL, message ids do not).
 * A folder that does not exist holds no mail; one that cannot be read is an
 * error, never taken for empty (erasure would report success with the files left).
 */
export class MailFolder {
  constructor(readonly dir: string) {}

  /** Writes a mail: write, fsync, rename, fsync the folder, so a reader never sees half a mail and a crash loses none. */
  async write(messageId: string, eml: Buffer): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = join(this.dir, `${TEMP_PREFIX}${randomUUID()}`);
    const path = join(this.dir, mailFileName(messageId));
    // One handle writes and syncs: reopening the file just to fsync it doubled the opens per mail.
    const file = await open(temp, 'wx', 0o600);
    try {
      try {
        await file.writeFile(eml);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path);
    } catch (error) {
      // A full disk: the attempt fails (and is retried), and leaves no empty or partial file behind.
      await rm(temp, { force: true });
      throw error;
    }
    await fsyncPath(this.dir);
    return path;
  }

  /** The folder's mails: stored message id → file name (files of the earlier naming read for their Message-ID). */
  async mails(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const name of await this.names()) {
      const id = LEGACY_NAME.test(name) ? await legacyMessageId(join(this.dir, name)) : messageIdOfName(name);
      if (id !== undefined) found.set(id, name);
    }
    return found;
  }

  /** Removes the files of these mails; how many it removed (not those gone already). */
  async remove(messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    const files = await this.mails();
    let removed = 0;
    for (const id of new Set(messageIds)) {
      const name = files.get(id);
      if (name !== undefined && (await removeFile(join(this.dir, name)))) removed++;
    }
    return removed;
  }

  /** Undefined when this process may list and change the folder (or it does not exist); else what stops it. */
  async reach(): Promise<PlaceOutOfReach | undefined> {
    try {
      await readdir(this.dir);
      await access(this.dir, constants.W_OK | constants.X_OK);
      return undefined;
    } catch (error) {
      if (absent(error)) return undefined;
      return { kind: 'unreadable', folder: this.dir, cause: (error as NodeJS.ErrnoException).code ?? String(error) };
    }
  }

  async *list(): AsyncIterable<{ name: string; eml: Buffer }> {
    for (const [id, name] of await this.mails()) yield { name: mailFileName(id), eml: await readFile(join(this.dir, name)) };
  }

  /** Removes half-written files a crash left behind (they hold personal data); how many. */
  async removeLeftovers(): Promise<number> {
    const temps = (await this.names({ temps: true })).filter((n) => n.startsWith(TEMP_PREFIX));
    await Promise.all(temps.map((n) => rm(join(this.dir, n), { force: true })));
    return temps.length;
  }

  /** Removes a file of the folder by name; false when it was gone already. */
  removeName(name: string): Promise<boolean> {
    return removeFile(join(this.dir, name));
  }

  /** Removes the folder once empty; false when something is still in it. */
  async removeIfEmpty(): Promise<boolean> {
    try {
      await rmdir(this.dir);
      return true;
    } catch (error) {
      return absent(error);
    }
  }

  read(name: string): Promise<Buffer> {
    return readFile(join(this.dir, name));
  }

  /** The folder's entries (mails only, unless `temps`); none when it does not exist. Any other failure is thrown. */
  private async names({ temps = false } = {}): Promise<string[]> {
    try {
      const names = await readdir(this.dir);
      return temps ? names : names.filter((n) => !n.startsWith(TEMP_PREFIX));
    } catch (error) {
      if (absent(error)) return [];
      throw error;
    }
  }
}

/** Removes a file; false when it was gone already (another erasure, or its writer, removed it). */
async function removeFile(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (error) {
    if (absent(error)) return false;
    throw error;
  }
}

/** The stored message id in a file of the earlier naming: its Message-ID header, among the first lines. */
async function legacyMessageId(path: string): Promise<string | undefined> {
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(16_384) });
    const head = buffer.subarray(0, bytesRead).toString('utf8').split('\n\n')[0];
    const header = /^Message-ID:\s*(\S+)/im.exec(head)?.[1];
    return header === undefined ? undefined : storedId(header);
  } finally {
    await file.close();
  }
}
