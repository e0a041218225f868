import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/server/storage/migrations';
import { openStorage, type Storage } from '../../src/server/storage/storage';
import { BACKEND, backendEnv } from '../support/backend';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function fresh(): Promise<{ dataDir: string; databaseUrl: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'migrations-'));
  const backend = await backendEnv();
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }), backend.drop);
  return { dataDir, databaseUrl: backend.env.DATABASE_URL ?? '' };
}

async function open(where: { dataDir: string; databaseUrl: string }): Promise<Storage> {
  const storage = await openStorage({ ...where, databasePoolSize: 2 });
  cleanup.push(() => storage.close());
  return storage;
}

const versions = async (s: Storage) => (await s.sql.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);

describe('versioned migrations (the backend under test)', () => {
  it('applies each migration once, at the first start only', async () => {
    const where = await fresh();
    const first = await open(where);
    expect(await versions(first)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(first.sql)).toEqual([]);
    const again = await open(where);
    expect(await versions(again)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('rolls a failing migration back whole: none of its tables, no version recorded', async () => {
    const first = await open(await fresh());
    const broken = { version: 999, name: 'broken', sql: { sqlite: 'CREATE TABLE half (a INTEGER); SELECT * FROM missing;', postgres: 'CREATE TABLE half (a INTEGER); SELECT * FROM missing;' } };
    await expect(migrate(first.sql, [...MIGRATIONS, broken])).rejects.toThrow(/missing/);
    expect(await versions(first)).toEqual(MIGRATIONS.map((m) => m.version));
    await expect(first.sql.all('SELECT * FROM half')).rejects.toThrow();
  });

  it('refuses a database a newer release migrated', async () => {
    const where = await fresh();
    const first = await open(where);
    await first.sql.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [1000, 'from the future', 0]);
    await expect(openStorage({ ...where, databasePoolSize: 1 })).rejects.toThrow(/schema version 1000, newer than this release knows/);
  });

  it.runIf(BACKEND === 'postgres')('lets instances that start together migrate one after the other', async () => {
    const where = await fresh();
    const both = await Promise.all([openStorage({ ...where, databasePoolSize: 2 }), openStorage({ ...where, databasePoolSize: 2 })]);
    cleanup.push(() => Promise.all(both.map((s) => s.close())).then(() => {}));
    expect(await versions(both[0])).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it.runIf(BACKEND === 'sqlite')('takes over a database made before versions were kept, adding its missing columns', async () => {
    const where = await fresh();
    // The first release's tables, with a request in them.
    const old = new DatabaseSync(join(where.dataDir, 'requests.db'));
    old.exec(`
      CREATE TABLE photos (name TEXT PRIMARY KEY, created_at INTEGER NOT NULL, request_id INTEGER REFERENCES requests(id));
      CREATE TABLE requests (id INTEGER PRIMARY KEY, reference TEXT NOT NULL UNIQUE, brand TEXT NOT NULL, variant TEXT NOT NULL,
        locale TEXT NOT NULL, payload TEXT NOT NULL, idempotency_key TEXT UNIQUE, payload_hash TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE outbox (id INTEGER PRIMARY KEY, request_id INTEGER NOT NULL REFERENCES requests(id), kind TEXT NOT NULL,
        recipient TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL, sent_at INTEGER, failed_at INTEGER, last_error TEXT);
      INSERT INTO requests VALUES (1, 'ref-1', 'ilve', 'simple', 'nl', '{}', NULL, 'h', 0);
      INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at) VALUES (1, 'confirmation', 'a@example.com', 's', 'b', 0);
    `);
    old.close();
    const storage = await open(where);
    expect(await versions(storage)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await storage.sql.all('SELECT reference FROM requests')).toEqual([{ reference: 'ref-1' }]);
    expect(await storage.sql.all('SELECT message_id, queued_at FROM outbox')).toEqual([{ message_id: null, queued_at: null }]);
    expect(await storage.photos.unclaimedBytes('x')).toEqual({ total: 0, mine: 0 });
  });
});
