/**
 * `erase` and the mails a server without SMTP_URL keeps: .eml files in
 * DATA_DIR/outbox beside SQLite's database, rows of the database with
 * PostgreSQL (so the command, run on any machine, reaches every instance's).
 * Folders servers of an earlier release wrote to with PostgreSQL are out of
 * its reach: it refuses before erasing anything (rows gone while the person's
 * mails stay could never be found again) and says how to end that.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/server/storage/open-storage';
import { BACKEND, freshPostgres, POSTGRES_AVAILABLE, type FreshDatabase } from '../../support/backend';
import { probeDatabase } from '../../support/database-probe';
import { count, keptMails, png, simpleRequest, startTestServer, submit, uploadedName, until, type TestServer } from '../../server/helpers';
import { requests, storeEnv } from './run-requests';

let server: TestServer | undefined;
const others: { dispose(): Promise<void> }[] = [];
const elsewhere = mkdtempSync(join(tmpdir(), 'erase-elsewhere-'));
afterEach(async () => {
  for (const other of others.splice(0).reverse()) await other.dispose();
  await server?.dispose();
  server = undefined;
});

/** The .eml files in the server's DATA_DIR/outbox. */
const mailFiles = (s: TestServer) => (existsSync(join(s.dataDir, 'outbox')) ? readdirSync(join(s.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);

/** The kept mails (files or rows) whose bytes name this address. */
const keptNaming = async (s: TestServer, address: string) => (await keptMails(s)).filter((m) => m.eml.toString('utf8').includes(address)).map((m) => m.name);

/** A request of `email` whose mails the server keeps; resolves once they are kept. */
async function submitWithMailFiles(s: TestServer, email = 'klant@example.com'): Promise<void> {
  const photo = await png();
  const request = JSON.parse(JSON.stringify(simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo))).replaceAll('klant@example.com', email)) as unknown;
  const before = (await keptNaming(s, email)).length;
  const res = await submit(s.url, 'ilve', request);
  expect(res.status).toBe(201);
  await until(async () => (await keptNaming(s, email)).length >= before + 2 || undefined, 'the kept mails');
}

/** A stored request of klant@example.com whose mails the server kept; the server then stops. */
async function requestWithMailFiles(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startTestServer(env);
  await submitWithMailFiles(s);
  await s.app.close();
  return s;
}

describe(`erase and the mail files (${BACKEND})`, () => {
  it("removes the person's kept mails wherever the server kept them", async () => {
    server = await requestWithMailFiles();
    const before = (await keptMails(server)).length;
    expect(before).toBeGreaterThanOrEqual(2);
    // PostgreSQL: the command's own DATA_DIR is another folder; the mails are in the database.
    const env = { ...storeEnv(server.config), ...(BACKEND === 'postgres' ? { DATA_DIR: elsewhere } : {}) };
    const run = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(run.stdout).toMatch(new RegExp(`mails kept without SMTP, removed \\((\\.eml files in [^)]*outbox|table mail_copies)\\) +${before}$`, 'm'));
    expect(await keptMails(server)).toEqual([]);
    expect(mailFiles(server)).toEqual([]);
  }, 60_000);

  it('mails --out writes every kept mail as an .eml file, as the server keeps it', async () => {
    server = await requestWithMailFiles();
    const out = join(elsewhere, 'mails-out');
    const run = await requests(['mails', '--out', out], { env: storeEnv(server.config) });
    const kept = (await keptMails(server)).sort((a, b) => (a.name < b.name ? -1 : 1));
    expect([run.code, run.stdout]).toEqual([0, expect.stringContaining(`Wrote ${kept.length} mails kept without SMTP`)]);
    expect(readdirSync(out).sort().map((name) => ({ name, eml: readFileSync(join(out, name)) }))).toEqual(kept);
  }, 60_000);

  it.runIf(BACKEND === 'postgres')('refuses, erasing nothing, while a folder servers of an earlier release wrote mails to is recorded, naming it with the command that forgets it', async () => {
    server = await requestWithMailFiles();
    // As an earlier release recorded it, for each of its instances (each its own volume at /data).
    await server.sql.run("INSERT INTO portal_settings (name, value) VALUES ('mail_files_dir:/data/outbox', '/data/outbox')");
    const env = { ...storeEnv(server.config), DATA_DIR: elsewhere };
    const refused = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect(refused.code).toBe(1);
    // The store the command acts on (its first line), then one line for the folder.
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/earlier release wrote mails to \/data\/outbox.*nothing erased.*`npm run requests -- retire-mail-folder \/data\/outbox`/);
    expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(1);

    const unknown = await requests(['retire-mail-folder', '/srv/other'], { env });
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/\/srv\/other is not a folder .*those recorded are: \/data\/outbox$/m)]);
    const retired = await requests(['retire-mail-folder', '/data/outbox'], { env });
    expect([retired.code, retired.stdout]).toEqual([0, expect.stringMatching(/^Forgot \/data\/outbox/)]);
    const erased = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect([erased.code, erased.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(0);
    expect(await keptMails(server)).toEqual([]);
  }, 60_000);

  it.runIf(BACKEND === 'postgres')("a server of this release moves the mails an earlier release wrote to its DATA_DIR/outbox into the database, and removes those whose mail is gone", async () => {
    server = await requestWithMailFiles();
    const kept = await keptMails(server);
    // As an earlier release left them: files in the instance's own folder, recorded, none in the database.
    const outbox = join(server.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    for (const { name, eml } of kept) writeFileSync(join(outbox, name), eml);
    writeFileSync(join(outbox, 'erased-meanwhile.desk.eml'), 'Message-ID: <erased-meanwhile.desk@example.com>\n\nklant@example.com');
    await server.sql.run('DELETE FROM mail_copies');
    await server.sql.run('INSERT INTO portal_settings (name, value) VALUES (?, ?)', [`mail_files_dir:${outbox}`, outbox]);
    const again = await startTestServer({ DATABASE_URL: server.config.databaseUrl, DATA_DIR: server.dataDir });
    others.push(again);
    expect(await keptMails(server)).toEqual(kept);
    expect(existsSync(outbox)).toBe(false);
    // Still recorded: other instances wrote to the same path on volumes of their own (retire-mail-folder forgets it).
    expect(await count(server, "SELECT count(*) AS n FROM portal_settings WHERE name LIKE 'mail_files_dir%'")).toBe(1);
  }, 60_000);
});

describe.runIf(BACKEND === 'postgres')('erase with two instances on one database, each its own DATA_DIR', () => {
  it("removes the person's mails kept by both instances, and says how many", async () => {
    server = await requestWithMailFiles();
    const second = await requestWithMailFiles({ DATABASE_URL: server.config.databaseUrl });
    others.push(second);
    const kept = (await keptNaming(server, 'klant@example.com')).length;
    expect(kept).toBeGreaterThanOrEqual(4);
    const run = await requests(['erase', '--email', 'klant@example.com'], { env: { ...storeEnv(server.config), DATA_DIR: elsewhere } });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(run.stdout).toMatch(new RegExp(`mails kept without SMTP, removed \\(table mail_copies\\) +${kept}$`, 'm'));
    expect(await keptMails(server)).toEqual([]);
    expect([mailFiles(server), mailFiles(second)]).toEqual([[], []]);
  }, 90_000);
});

describe.runIf(BACKEND === 'sqlite' && POSTGRES_AVAILABLE)('erase after migrate-to-postgres (the rows get new ids)', () => {
  let db: FreshDatabase | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it("moves the mail files, named as an earlier release named them, into PostgreSQL by their Message-ID; erase then removes the person's and leaves other people's", async () => {
    server = await startTestServer();
    await submitWithMailFiles(server, 'klant@example.com');
    await submitWithMailFiles(server, 'buurman@example.com');
    await server.app.close();
    // As an earlier release named them: by the SQLite row's id.
    const outbox = join(server.dataDir, 'outbox');
    for (const row of await server.sql.all<{ id: number; kind: string; reference: string }>('SELECT o.id, o.kind, r.reference FROM outbox o JOIN requests r ON r.id = o.request_id')) {
      renameSync(join(outbox, `${row.reference}.${row.kind}.eml`), join(outbox, `${row.id}-${row.kind}.eml`));
    }
    const mailsEach = (await server.sql.all<{ n: number }>('SELECT count(*) AS n FROM outbox GROUP BY request_id'))[0].n;
    const theirs = (await keptNaming(server, 'buurman@example.com')).length;
    const files = mailFiles(server).length;
    // PostgreSQL numbers the rows its own way: here the first person's mails get the ids the second's had.
    db = await freshPostgres();
    const target = await openStorage({ dataDir: elsewhere, databaseUrl: db.url, databasePoolSize: 1 });
    await target.close();
    const pg = probeDatabase({ dataDir: elsewhere, databaseUrl: db.url });
    await pg.run(`SELECT setval(pg_get_serial_sequence('outbox', 'id'), ${Number(mailsEach)})`);
    const env = { DATA_DIR: server.dataDir, DATABASE_URL: db.url };
    try {
      const migrated = await requests(['migrate-to-postgres'], { env });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stderr).toContain(`mail files: ${files} moved into the database (table mail_copies) by their Message-ID, 0 of mails no longer stored removed`);
      expect(mailFiles(server)).toEqual([]);
      const moved = { sql: pg, dataDir: elsewhere } as unknown as TestServer;
      // Each copy is its own row's: the message id it was sent with names it.
      expect(await pg.all<{ n: number }>('SELECT count(*) AS n FROM mail_copies c JOIN outbox o ON o.id = c.outbox_id WHERE o.message_id = c.message_id')).toEqual([{ n: files }]);

      const run = await requests(['erase', '--email', 'klant@example.com'], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(await keptNaming(moved, 'klant@example.com')).toEqual([]);
      expect(await keptNaming(moved, 'buurman@example.com')).toHaveLength(theirs);
    } finally {
      await pg.close();
    }
  }, 90_000);
});

process.on('exit', () => rmSync(elsewhere, { recursive: true, force: true }));
