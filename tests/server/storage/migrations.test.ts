import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { Kysely } from 'kysely';
import { DatabaseState } from '../../../src/server/storage/database-state';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../../src/server/storage/migrations/history';
import { migrate, type Migration, type MigrationPlan } from '../../../src/server/storage/migrations/migrate';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { Storage } from '../../../src/server/storage/port';
import { PortalPostgresDialect } from '../../../src/server/storage/postgres/kysely-dialect';
import { POSTGRES_PLAN } from '../../../src/server/storage/postgres/migrations';
import { openPool } from '../../../src/server/storage/postgres/pool';
import type { PortalDatabase } from '../../../src/server/storage/schema';
import { openDatabase } from '../../../src/server/storage/sqlite/connection';
import { NodeSqliteDialect } from '../../../src/server/storage/sqlite/kysely-dialect';
import { SQLITE_PLAN } from '../../../src/server/storage/sqlite/migrations';
import { mailboxOf } from '../../../src/core/mailbox';
import { FormRevisions } from '../../../src/server/revisions/form-revisions';
import { portal } from '../../support/portal-data';
import { extendedRequest, simpleRequest } from '../../fixtures/requests';
import { BACKEND, backendEnv } from '../../support/backend';
import { probeDatabase, type DatabaseProbe } from '../../support/database-probe';

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

function probe(where: { dataDir: string; databaseUrl: string }): DatabaseProbe {
  const opened = probeDatabase(where);
  cleanup.push(() => opened.close());
  return opened;
}

/** The backend's own migration plan on a Kysely of the test's own, to run migrations by hand. */
function migrator(where: { dataDir: string; databaseUrl: string }): { db: Kysely<PortalDatabase>; plan: MigrationPlan } {
  const dialect =
    BACKEND === 'sqlite' ? new NodeSqliteDialect(openDatabase(where.dataDir)) : new PortalPostgresDialect(openPool({ url: where.databaseUrl, poolSize: 1 }), new DatabaseState());
  const db = new Kysely<PortalDatabase>({ dialect });
  cleanup.push(() => db.destroy());
  return { db, plan: BACKEND === 'sqlite' ? SQLITE_PLAN : POSTGRES_PLAN };
}

const MIGRATIONS: readonly Migration[] = BACKEND === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
const versions = async (p: DatabaseProbe) => (await p.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);

/** A fresh database migrated up to `version` by hand, holding one request (id 1) for outbox rows to point at. */
async function atVersion(version: number): Promise<{ db: Kysely<PortalDatabase>; plan: MigrationPlan; look: DatabaseProbe & { where: { dataDir: string; databaseUrl: string } } }> {
  const where = await fresh();
  const { db, plan } = migrator(where);
  await migrate(db, { ...plan, migrations: MIGRATIONS.filter((m) => m.version <= version) });
  const look = probe(where);
  await look.run("INSERT INTO requests (id, reference, brand, variant, locale, payload, payload_hash, created_at) VALUES (1, 'ref-1', 'ilve', 'simple', 'nl', '{}', 'h', 0)");
  return { db, plan, look: Object.assign(look, { where }) };
}

describe('versioned migrations (the backend under test)', () => {
  it('applies each migration once, at the first start only', async () => {
    const where = await fresh();
    await open(where);
    expect(await versions(probe(where))).toEqual(MIGRATIONS.map((m) => m.version));
    const { db, plan } = migrator(where);
    expect(await migrate(db, plan)).toEqual([]);
    await open(where);
    expect(await versions(probe(where))).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('rolls a failing migration back whole: none of its tables, no version recorded', async () => {
    const where = await fresh();
    await open(where);
    const broken: Migration = { version: 999, name: 'broken', statements: ['CREATE TABLE half (a INTEGER)', 'SELECT * FROM missing'] };
    const { db, plan } = migrator(where);
    await expect(migrate(db, { ...plan, migrations: [...MIGRATIONS, broken] })).rejects.toThrow(/missing/);
    expect(await versions(probe(where))).toEqual(MIGRATIONS.map((m) => m.version));
    await expect(probe(where).all('SELECT * FROM half')).rejects.toThrow();
  });

  it('refuses a database a newer release migrated', async () => {
    const where = await fresh();
    await open(where);
    await probe(where).run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [1000, 'from the future', 0]);
    await expect(openStorage({ ...where, databasePoolSize: 1 })).rejects.toThrow(/schema version 1000, newer than this release knows/);
  });

  it('rewrites the stored limit keys of Gmail inboxes (version 5), so mails sent before the upgrade still count', async () => {
    const { db, plan, look } = await atVersion(4);
    // The keys as release 4 made them: lower-case, +tag gone, dots kept.
    const keys = ['anna.jansen@gmail.com', 'a.n.n.ajansen@googlemail.com', 'annajansen@gmail.com', 'anna.jansen@example.com', 'anna.jansen@gmail.com.example', 'jan@notgmail.com'];
    for (const key of keys) {
      await look.run("INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at, queued_at, channel, limit_key) VALUES (1, 'confirmation', ?, 's', 'b', 0, 0, 'mail', ?)", [key, key]);
    }
    expect(await migrate(db, plan)).toEqual(MIGRATIONS.filter((m) => m.version > 4).map((m) => m.version));
    const stored = (await look.all<{ limit_key: string }>('SELECT limit_key FROM outbox ORDER BY id')).map((r) => r.limit_key);
    expect(stored).toEqual(keys.map(mailboxOf));
    expect(stored.slice(0, 3)).toEqual(Array(3).fill('annajansen@gmail.com'));
  });

  it('gives pending deliveries the time they became due (version 7): a held one its hour, the rest their queueing', async () => {
    const { db, plan, look } = await atVersion(6);
    const row = (attempts: number, next: number, queued: number | null, sent: number | null) =>
      look.run("INSERT INTO outbox (request_id, kind, recipient, subject, body, attempts, next_attempt_at, queued_at, sent_at, channel) VALUES (1, 'confirmation', 'a@example.com', 's', 'b', ?, ?, ?, ?, 'mail')", [attempts, next, queued, sent]);
    await row(0, 5000, 1000, null); // held for a later hour
    await row(2, 9000, 1000, null); // retried
    await row(0, 1000, null, null); // queued before rows kept the time
    await row(1, 1000, 1000, 2000); // sent
    expect(await migrate(db, plan)).toEqual(MIGRATIONS.filter((m) => m.version > 6).map((m) => m.version));
    const due = (await look.all<{ due_at: number | null }>('SELECT due_at FROM outbox ORDER BY id')).map((r) => (r.due_at === null ? null : Number(r.due_at)));
    expect(due).toEqual([5000, 1000, 1000, null]);
  });

  it('gives requests stored before form revisions (version 8) the revision of their form at the next start, only where they fit it; one of a form gone or changed keeps none', async () => {
    const { db, plan, look } = await atVersion(7);
    const insert = (id: number, variant: string, payload: Record<string, unknown>) =>
      look.run(`INSERT INTO requests (id, reference, brand, variant, locale, payload, payload_hash, created_at) VALUES (?, ?, 'acme', ?, 'nl', ?, 'h', 0)`, [id, `ref-${id}`, variant, JSON.stringify(payload)]);
    await look.run('UPDATE requests SET payload = ? WHERE id = 1', [JSON.stringify(simpleRequest('a.jpg', 'b.jpg'))]);
    await insert(2, 'retired', simpleRequest('a.jpg', 'b.jpg'));
    // Sent with a simple form that had other fields than today's: today's form would misread it.
    await insert(3, 'simple', extendedRequest('a.jpg', 'b.jpg'));
    expect(await migrate(db, plan)).toEqual(MIGRATIONS.filter((m) => m.version > 7).map((m) => m.version));
    const revisionOf = async () => (await look.all<{ form_revision: string | null }>('SELECT form_revision FROM requests ORDER BY id')).map((r) => r.form_revision);
    expect(await revisionOf()).toEqual([null, null, null]);

    const storage = await openStorage({ ...look.where, databasePoolSize: 2 });
    cleanup.push(() => storage.close());
    const forms = new FormRevisions(portal, storage);
    expect(await forms.register(storage)).toBe(1);
    expect(await revisionOf()).toEqual([forms.currentId('simple'), null, null]);
    // Stored once, whichever instance starts next: a second start adds nothing.
    expect(await forms.register(storage)).toBe(0);
    expect(await look.all('SELECT variant FROM form_revisions ORDER BY variant')).toEqual([...portal.forms.keys()].sort().map((variant) => ({ variant })));
    expect((await forms.of({ variant: 'simple', form_revision: forms.currentId('simple'), payload: '{}' }))?.model).toBe(portal.forms.get('simple'));
    // The one that fits no form is read as a request of an unknown form, not through today's.
    expect(await forms.of({ variant: 'simple', form_revision: null, payload: JSON.stringify(extendedRequest('a.jpg', 'b.jpg')) })).toBeUndefined();
  });

  it.runIf(BACKEND === 'postgres')('lets instances that start together migrate one after the other', async () => {
    const where = await fresh();
    const both = await Promise.all([openStorage({ ...where, databasePoolSize: 2 }), openStorage({ ...where, databasePoolSize: 2 })]);
    cleanup.push(() => Promise.all(both.map((s) => s.close())).then(() => {}));
    expect(await versions(probe(where))).toEqual(MIGRATIONS.map((m) => m.version));
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
    const look = probe(where);
    expect(await versions(look)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await look.all('SELECT reference FROM requests')).toEqual([{ reference: 'ref-1' }]);
    expect(await look.all('SELECT message_id, queued_at, channel, limit_key FROM outbox')).toEqual([
      { message_id: null, queued_at: null, channel: 'mail', limit_key: 'a@example.com' },
    ]);
    expect(await storage.photos.unclaimedBytes('x', ['x'])).toEqual({ total: 0, mine: 0, groups: [0] });
  });
});

describe('both backends keep one schema history', () => {
  it('the same versions and names, in order', () => {
    const steps = (m: readonly Migration[]) => m.map(({ version, name }) => ({ version, name }));
    expect(steps(SQLITE_MIGRATIONS)).toEqual(steps(POSTGRES_MIGRATIONS));
  });
});
