import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, linkSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { probeDatabase, type DatabaseProbe } from '../../support/database-probe';
import { BACKEND, freshPostgres, POSTGRES_AVAILABLE, type FreshDatabase } from '../../support/backend';
import { buildTestApp, extendedRequest, injectSubmit, injectUpload, keptMails, png, simpleRequest, storedPhoto, until, type TestServer } from '../../server/helpers';

const run = promisify(execFile);
const PHOTO_URL_SECRET = 'test-photo-link-secret-of-32-characters!';

interface Cli {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run requests -- <args>` as the operator does, on DATA_DIR and DATABASE_URL. */
async function requestsCli(env: { DATA_DIR: string; DATABASE_URL: string }, ...args: string[]): Promise<Cli> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as Cli;
    return { code, stdout, stderr };
  }
}

/** A table row of the migration's report: label, SQLite's figure, PostgreSQL's, verdict. */
function tableRow(stdout: string, label: string): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith(label));
  return line ? line.slice(label.length).trim().split(/\s+/) : [];
}

/**
 * Everything of each table but the ids, with the request named by its reference: equal on both sides after
 * the move. A delivery's Message-ID is the one the SQLite server sent with (its row's, else derived from its
 * id), and the one PostgreSQL's row holds.
 */
async function contents(sql: DatabaseProbe) {
  const messageId = sql.dialect === 'sqlite' ? "COALESCE(o.message_id, 'outbox-' || o.id)" : 'o.message_id';
  const requests = await sql.all('SELECT reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision FROM requests ORDER BY reference');
  // The forms the requests were sent with, whole: every reader of a moved request reads it by its own.
  const revisions = await sql.all('SELECT id, variant, definition, created_at FROM form_revisions ORDER BY id');
  const photos = await sql.all(
    `SELECT p.name, p.created_at, r.reference, p.owner, p.bytes FROM photos p LEFT JOIN requests r ON r.id = p.request_id ORDER BY p.name`,
  );
  const outbox = await sql.all<Record<string, unknown>>(
    `SELECT r.reference, o.kind, o.recipient, o.subject, o.body, o.attempts, o.next_attempt_at, o.sent_at, o.failed_at, o.last_error,
            ${messageId} AS message_id, o.queued_at
     FROM outbox o JOIN requests r ON r.id = o.request_id ORDER BY r.reference, o.kind, o.recipient`,
  );
  return { requests, photos, outbox, revisions };
}

describe.runIf(BACKEND === 'sqlite' && POSTGRES_AVAILABLE)('npm run requests -- migrate-to-postgres', { timeout: 60_000 }, () => {
  let sqlite: TestServer;
  const keyed: { reference: string; key: string; body: Record<string, unknown> }[] = [];
  let unclaimed: string[];
  let oldMail: { id: number; reference: string; kind: string };
  const databases: FreshDatabase[] = [];

  async function postgres(): Promise<FreshDatabase> {
    const db = await freshPostgres();
    databases.push(db);
    return db;
  }

  beforeAll(async () => {
    sqlite = await buildTestApp();
    const photo = async (i: number) => injectUpload(sqlite.app, await png(40 + i, 30));
    for (let i = 0; i < 5; i++) {
      const [image1, image2] = [await photo(2 * i), await photo(2 * i + 1)];
      const extended = i % 2 === 1;
      const body = extended ? extendedRequest(image1, image2, 'nl') : { ...simpleRequest(image1, image2), last_name: `Jansen ${i}` };
      const key = `key-${i}`;
      const res = await injectSubmit(sqlite.app, extended ? 'teka' : 'ilve', body, i < 4 ? { 'Idempotency-Key': key } : {});
      expect(res.statusCode).toBe(201);
      if (i < 4) keyed.push({ reference: (res.json() as { reference: string }).reference, key, body });
    }
    unclaimed = [await photo(20), await photo(21)];
    await until(async () => (await sqlite.sql.all('SELECT id FROM outbox WHERE sent_at IS NULL')).length === 0, 'mails sent');
    await sqlite.app.close();
    // Deliveries in every state: one failed for good, one still pending, and one queued before rows kept a Message-ID.
    const [failed, pending] = await sqlite.sql.all<{ id: number }>('SELECT id FROM outbox ORDER BY id LIMIT 2');
    await sqlite.sql.run("UPDATE outbox SET sent_at = NULL, failed_at = 1700000000000, attempts = 9, last_error = '550 no such user' WHERE id = ?", [failed.id]);
    await sqlite.sql.run('UPDATE outbox SET sent_at = NULL, attempts = 2, next_attempt_at = 1700000000000, message_id = NULL WHERE id = ?', [pending.id]);
    [oldMail] = await sqlite.sql.all('SELECT o.id, r.reference, o.kind FROM outbox o JOIN requests r ON r.id = o.request_id WHERE o.id = ?', [pending.id]);
  }, 60_000);

  afterAll(async () => {
    await sqlite.dispose();
    for (const db of databases) await db.drop();
  });

  it('refuses without DATABASE_URL, without a requests.db in DATA_DIR, and on a schema of another release', async () => {
    const noUrl = await requestsCli({ DATA_DIR: sqlite.dataDir, DATABASE_URL: '' }, 'migrate-to-postgres');
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('DATABASE_URL is not set');
    const db = await postgres();
    const empty = mkdtempSync(join(tmpdir(), 'migrate-empty-'));
    const noDb = await requestsCli({ DATA_DIR: empty, DATABASE_URL: db.url }, 'migrate-to-postgres');
    rmSync(empty, { recursive: true });
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toContain('requests.db does not exist');

    const newer = mkdtempSync(join(tmpdir(), 'migrate-newer-'));
    cpSync(sqlite.dataDir, newer, { recursive: true });
    const db2 = new DatabaseSync(join(newer, 'requests.db'));
    db2.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    db2.close();
    const ahead = await requestsCli({ DATA_DIR: newer, DATABASE_URL: db.url }, 'migrate-to-postgres');
    rmSync(newer, { recursive: true });
    expect(ahead.code).toBe(1);
    expect(ahead.stderr).toContain('has schema version 99');
  });

  describe('after a move', () => {
    let db: FreshDatabase;
    let moved: Cli;
    let stored: Awaited<ReturnType<typeof contents>>;
    let photos: { name: string; data: Buffer }[];
    let pg: TestServer;

    beforeAll(async () => {
      db = await postgres();
      moved = await requestsCli({ DATA_DIR: sqlite.dataDir, DATABASE_URL: db.url }, 'migrate-to-postgres');
      // As moved, before a server on PostgreSQL starts delivering what is pending.
      const target = probeDatabase({ dataDir: sqlite.dataDir, databaseUrl: db.url });
      stored = await contents(target);
      photos = await target.all('SELECT name, data FROM photos');
      await target.close();
      pg = await buildTestApp({ DATABASE_URL: db.url, PHOTO_URL_SECRET });
    }, 60_000);
    afterAll(() => pg?.dispose());

    it('reports equal counts of both sides, with the deliveries by state', () => {
      expect(moved.stderr).toContain('requests: 5/5 (5 moved, 0 already there)');
      expect(moved.code).toBe(0);
      expect(tableRow(moved.stdout, 'requests')).toEqual(['5', '5', 'ok']);
      expect(tableRow(moved.stdout, 'photos of requests')).toEqual(['10', '10', 'ok']);
      expect(tableRow(moved.stdout, 'unclaimed photos')).toEqual(['2', '2', 'ok']);
      expect(tableRow(moved.stdout, '  failed for good')).toEqual(['1', '1', 'ok']);
      expect(tableRow(moved.stdout, '  pending')).toEqual(['1', '1', 'ok']);
      expect(moved.stdout).toContain('references missing in PostgreSQL: 0');
      expect(moved.stdout).toContain('verified');
      // Personal data stays out of the report.
      expect(`${moved.stdout}${moved.stderr}`).not.toMatch(/Jansen|klant@example.com|Dorpsstraat/);
    });

    it('keeps every row, photo byte and delivery state; an old delivery keeps the Message-ID it was sent with', async () => {
      expect(stored).toEqual(await contents(sqlite.sql));
      expect(photos).toHaveLength(12);
      for (const { name, data } of photos) expect(data.equals(await storedPhoto(sqlite, name)), name).toBe(true);
      expect(stored.outbox.find((o) => o.reference === oldMail.reference && o.kind === oldMail.kind)).toMatchObject({
        message_id: `outbox-${oldMail.id}`,
      });
      // The server on PostgreSQL sends the pending old mail again under that Message-ID.
      await until(async () => (await keptMails(pg)).some((m) => m.eml.toString('utf8').includes(`<outbox-${oldMail.id}@`)), 'the old mail sent');
    });

    it('exports the same requests from PostgreSQL as from SQLite', async () => {
      const fromSqlite = await requestsCli({ DATA_DIR: sqlite.dataDir, DATABASE_URL: '' }, 'export', '--format', 'jsonl');
      const fromPostgres = await requestsCli({ DATA_DIR: pg.dataDir, DATABASE_URL: db.url }, 'export', '--format', 'jsonl');
      expect(fromSqlite.stdout.trim().split('\n')).toHaveLength(5);
      expect(fromPostgres.stdout).toBe(fromSqlite.stdout);
    });

    it('answers a replayed submit with the moved reference, and lets a new submit claim a moved unclaimed photo', async () => {
      for (const { reference, key, body } of keyed) {
        const replay = await injectSubmit(pg.app, body.brand === 'Teka' ? 'teka' : 'ilve', body, { 'Idempotency-Key': key });
        expect(replay.json()).toMatchObject({ reference });
      }
      const fresh = await injectSubmit(pg.app, 'ilve', simpleRequest(unclaimed[0], unclaimed[1]));
      expect(fresh.statusCode).toBe(201);
      const claimed = await pg.sql.all<{ reference: string }>(
        `SELECT r.reference FROM photos p JOIN requests r ON r.id = p.request_id WHERE p.name IN (?, ?)`,
        unclaimed,
      );
      expect(claimed.map((c) => c.reference)).toEqual(Array(2).fill((fresh.json() as { reference: string }).reference));
    });
  });

  it('resumes: run again after a partial move, it moves what is missing and duplicates nothing', async () => {
    const db = await postgres();
    const env = { DATA_DIR: sqlite.dataDir, DATABASE_URL: db.url };
    expect((await requestsCli(env, 'migrate-to-postgres')).code).toBe(0);
    // What a run stopped half-way leaves: some requests (whole, with their photos and deliveries) and photos not there yet.
    const target = probeDatabase({ dataDir: sqlite.dataDir, databaseUrl: db.url });
    await forget(target, [keyed[1].reference, keyed[3].reference], unclaimed[0]);
    await target.close();

    const again = await requestsCli(env, 'migrate-to-postgres');
    expect(again.stderr).toContain('requests: 5/5 (2 moved, 3 already there)');
    expect(again.stderr).toContain('unclaimed photos: 2 (1 moved)');
    expect(again.code).toBe(0);
    expect(tableRow(again.stdout, 'requests')).toEqual(['5', '5', 'ok']);
    const third = await requestsCli(env, 'migrate-to-postgres');
    expect(third.stderr).toContain('requests: 5/5 (0 moved, 5 already there)');
    expect(third.code).toBe(0);

    const check = probeDatabase({ dataDir: sqlite.dataDir, databaseUrl: db.url });
    expect(await contents(check)).toEqual(await contents(sqlite.sql));
    await check.close();
  });

  it('completes a run killed half-way when run again, without duplicates', async () => {
    const grown = grownCopy(sqlite.dataDir, 1000);
    const db = await postgres();
    const env = { DATA_DIR: grown, DATABASE_URL: db.url };
    try {
      // Killed without warning once the first thousand requests are in.
      const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), 'migrate-to-postgres'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('requests: 1000/') && child.kill('SIGKILL'));
      const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
      expect(signal).toBe('SIGKILL');

      const again = await requestsCli(env, 'migrate-to-postgres');
      expect(again.code).toBe(0);
      const [, there] = /requests: 5000\/5000 \((\d+) moved, (\d+) already there\)/.exec(again.stderr)!.slice(1).map(Number);
      expect(there).toBeGreaterThanOrEqual(1000);
      expect(there).toBeLessThan(5000);
      expect(tableRow(again.stdout, 'requests')).toEqual(['5000', '5000', 'ok']);
      expect(tableRow(again.stdout, 'photos of requests')).toEqual(['10000', '10000', 'ok']);
      const check = probeDatabase({ dataDir: grown, databaseUrl: db.url });
      const [{ requests, references }] = await check.all<{ requests: number; references: number }>(
        'SELECT count(*) AS requests, count(DISTINCT reference) AS "references" FROM requests',
      );
      await check.close();
      expect([requests, references]).toEqual([5000, 5000]);
    } finally {
      rmSync(grown, { recursive: true });
    }
  }, 60_000);

  it('exits non-zero with the mismatch shown when PostgreSQL disagrees with SQLite', async () => {
    const db = await postgres();
    const env = { DATA_DIR: sqlite.dataDir, DATABASE_URL: db.url };
    expect((await requestsCli(env, 'migrate-to-postgres')).code).toBe(0);
    const target = probeDatabase({ dataDir: sqlite.dataDir, databaseUrl: db.url });
    await target.run('UPDATE outbox SET sent_at = NULL WHERE id = (SELECT min(id) FROM outbox WHERE sent_at IS NOT NULL)');
    await target.close();

    const again = await requestsCli(env, 'migrate-to-postgres');
    expect(again.code).toBe(1);
    expect(tableRow(again.stdout, '  sent').at(-1)).toBe('MISMATCH');
    expect(tableRow(again.stdout, 'requests')).toEqual(['5', '5', 'ok']);
    expect(again.stdout).toContain('MISMATCH: run again');
  });

  it('refuses photo files missing on disk, naming them; --allow-missing-photos moves their requests without them', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'migrate-copy-'));
    cpSync(sqlite.dataDir, copy, { recursive: true });
    const [{ name }] = await sqlite.sql.all<{ name: string }>('SELECT name FROM photos WHERE request_id IS NOT NULL ORDER BY name LIMIT 1');
    rmSync(join(copy, 'photos', name));
    const db = await postgres();
    const env = { DATA_DIR: copy, DATABASE_URL: db.url };
    try {
      const refused = await requestsCli(env, 'migrate-to-postgres');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`1 photo file(s) missing`);
      expect(refused.stderr).toContain(name);
      expect(refused.stderr).toContain('Nothing was moved');

      const allowed = await requestsCli(env, 'migrate-to-postgres', '--allow-missing-photos');
      expect(allowed.code).toBe(0);
      expect(allowed.stderr).toContain(name);
      expect(tableRow(allowed.stdout, 'requests')).toEqual(['5', '5', 'ok']);
      expect(tableRow(allowed.stdout, 'photos of requests')).toEqual(['9', '9', 'ok']);
    } finally {
      rmSync(copy, { recursive: true });
    }
  });
});

/**
 * A copy of `dataDir` grown `times` over: each request cloned under a new reference, with its
 * photos (hard links under new names) and deliveries, so a move takes long enough to be killed.
 */
function grownCopy(dataDir: string, times: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrate-grown-'));
  cpSync(dataDir, dir, { recursive: true });
  const db = new DatabaseSync(join(dir, 'requests.db'));
  const originals = db.prepare('SELECT max(id) AS n FROM requests').get() as { n: number };
  const claimed = db.prepare('SELECT name FROM photos WHERE request_id IS NOT NULL').all() as { name: string }[];
  const cloneOf = `JOIN requests r ON r.id = x.request_id JOIN requests c ON c.reference = r.reference || '-' || ? WHERE r.id <= ?`;
  const requests = db.prepare(
    `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
     SELECT reference || '-' || ?, brand, variant, locale, payload, NULL, payload_hash, created_at, form_revision FROM requests WHERE id <= ?`,
  );
  const photos = db.prepare(
    `INSERT INTO photos (name, created_at, request_id, owner, bytes) SELECT ? || '-' || x.name, x.created_at, c.id, x.owner, x.bytes FROM photos x ${cloneOf}`,
  );
  const outbox = db.prepare(
    `INSERT INTO outbox (request_id, kind, recipient, subject, body, attempts, next_attempt_at, sent_at, failed_at, last_error, message_id, queued_at)
     SELECT c.id, x.kind, x.recipient, x.subject, x.body, x.attempts, x.next_attempt_at, x.sent_at, x.failed_at, x.last_error, x.message_id || '-' || ?, x.queued_at
     FROM outbox x ${cloneOf}`,
  );
  db.exec('BEGIN');
  for (let i = 1; i < times; i++) {
    const copy = String(i);
    requests.run(copy, originals.n);
    photos.run(copy, copy, originals.n);
    outbox.run(copy, copy, originals.n);
    for (const { name } of claimed) linkSync(join(dir, 'photos', name), join(dir, 'photos', `${copy}-${name}`));
  }
  db.exec('COMMIT');
  db.close();
  return dir;
}

/** Removes requests (with their photos and deliveries) and an unclaimed photo from PostgreSQL. */
async function forget(target: DatabaseProbe, references: string[], photo: string): Promise<void> {
  const ids = (await target.all<{ id: number }>('SELECT id FROM requests WHERE reference IN (?, ?)', references)).map((r) => r.id);
  for (const id of ids) {
    await target.run('DELETE FROM photos WHERE request_id = ?', [id]);
    await target.run('DELETE FROM outbox WHERE request_id = ?', [id]);
    await target.run('DELETE FROM requests WHERE id = ?', [id]);
  }
  await target.run('DELETE FROM photos WHERE name = ?', [photo]);
}
