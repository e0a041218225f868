import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../src/server/storage/open-storage';
import type { RequestWriter, Storage } from '../../src/server/storage/port';
import { freshPostgres, type FreshDatabase } from './backend';
import { storedPhoto } from './stored-photo';

/** Storage and its request writer on a database of their own, for the tests that race PostgreSQL's transactions. */
export interface WriterOnPostgres {
  db: FreshDatabase;
  storage: Storage;
  writer: RequestWriter;
  /** A new unclaimed photo's name. */
  photo(): Promise<string>;
  /** Closes the writer and storage, drops the database and removes the data folder. */
  close(): Promise<void>;
}

/** Four pooled connections (enough for a batch, a request alone and an erase at once), mails limited per mailbox as given. */
export async function writerOnPostgres(mailsPerRecipientPerDay: number): Promise<WriterOnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'writer-on-postgres-'));
  const db = await freshPostgres();
  let storage: Storage | undefined;
  let writer: RequestWriter | undefined;
  const close = async () => {
    await writer?.close();
    await storage?.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    storage = await openStorage({ dataDir: dir, databaseUrl: db.url, databasePoolSize: 4, deliveryLeaseMs: 60_000 });
    writer = await storage.openWriter({ mailsPerRecipientPerDay });
  } catch (error) {
    await close();
    throw error;
  }
  const photos = storage.photos;
  const photo = () => storedPhoto(photos);
  return { db, storage, writer, photo, close };
}
