/**
 * `erase` and the .eml files a server without SMTP_URL writes to DATA_DIR/outbox.
 * With PostgreSQL the command may run on another machine, or without the
 * server's DATA_DIR: it must find the files where the server put them, or
 * refuse before erasing anything (rows gone while the person's mails stay
 * could never be found again).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/server/storage/open-storage';
import { BACKEND, freshPostgres, POSTGRES_AVAILABLE, type FreshDatabase } from '../../support/backend';
import { probeDatabase } from '../../support/database-probe';
import { count, png, simpleRequest, startTestServer, submit, uploadedName, until, type TestServer } from '../../server/helpers';
import { requests, storeEnv } from './run-requests';

let server: TestServer | undefined;
const others: { dispose(): Promise<void> }[] = [];
const elsewhere = mkdtempSync(join(tmpdir(), 'erase-elsewhere-'));
afterEach(async () => {
  for (const other of others.splice(0).reverse()) await other.dispose();
  await server?.dispose();
  server = undefined;
});

const mailFiles = (s: TestServer) => (existsSync(join(s.dataDir, 'outbox')) ? readdirSync(join(s.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);

/** The .eml files whose bytes name this address. */
const filesNaming = (s: TestServer, address: string) => mailFiles(s).filter((f) => readFileSync(join(s.dataDir, 'outbox', f), 'utf8').includes(address));

/** A request of `email` whose mails the server writes as .eml files; resolves once they are written. */
async function submitWithMailFiles(s: TestServer, email = 'klant@example.com'): Promise<void> {
  const photo = await png();
  const request = JSON.parse(JSON.stringify(simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo))).replaceAll('klant@example.com', email)) as unknown;
  const res = await submit(s.url, 'ilve', request);
  expect(res.status).toBe(201);
  const before = filesNaming(s, email).length;
  await until(() => filesNaming(s, email).length >= before + 2 || undefined, 'the mail files');
}

/** A stored request of klant@example.com whose mails the server wrote as .eml files; the server then stops. */
async function requestWithMailFiles(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startTestServer(env);
  await submitWithMailFiles(s);
  await s.app.close();
  return s;
}

describe(`erase and the mail files (${BACKEND})`, () => {
  it("removes the person's .eml files where the server wrote them", async () => {
    server = await requestWithMailFiles();
    const before = mailFiles(server).length;
    // PostgreSQL: the command's own DATA_DIR is another folder; the server's is found through the database.
    const env = { ...storeEnv(server.config), ...(BACKEND === 'postgres' ? { DATA_DIR: elsewhere } : {}) };
    const run = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(run.stdout).toMatch(new RegExp(`mail files removed[^\\n]*\\b${before}\\b`));
    expect(mailFiles(server)).toEqual([]);
  }, 60_000);

  it.runIf(BACKEND === 'postgres')("refuses, erasing nothing, when the server's mail folder is out of reach", async () => {
    server = await requestWithMailFiles();
    const files = mailFiles(server).length;
    const moved = `${server.dataDir}-away`;
    renameSync(server.dataDir, moved); // as on another machine
    try {
      const run = await requests(['erase', '--email', 'klant@example.com'], { env: { ...storeEnv(server.config), DATA_DIR: elsewhere } });
      expect(run.code).toBe(1);
      // The store the command acts on (its first line), then one line of why not.
      const lines = run.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(/the server writes mail files to .*outbox, which cannot be reached from here: nothing erased/);
      expect(lines).toHaveLength(2);
      expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(1);
    } finally {
      renameSync(moved, server.dataDir);
    }
    expect(mailFiles(server)).toHaveLength(files);
  }, 60_000);
});

describe.runIf(BACKEND === 'postgres')('erase with two instances on one database, each writing mail files to its own DATA_DIR', () => {
  it("removes the person's files from both instances' folders, and says how many", async () => {
    server = await requestWithMailFiles();
    const second = await requestWithMailFiles({ DATABASE_URL: server.config.databaseUrl });
    others.push(second);
    const files = [filesNaming(server, 'klant@example.com').length, filesNaming(second, 'klant@example.com').length];
    expect(files.every((n) => n >= 2)).toBe(true);
    const run = await requests(['erase', '--email', 'klant@example.com'], { env: { ...storeEnv(server.config), DATA_DIR: elsewhere } });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(run.stdout).toMatch(new RegExp(`mail files removed[^\\n]*\\b${files[0] + files[1]}\\b`));
    expect([mailFiles(server), mailFiles(second)]).toEqual([[], []]);
  }, 90_000);
});

describe.runIf(BACKEND === 'sqlite' && POSTGRES_AVAILABLE)('erase after migrate-to-postgres (the rows get new ids)', () => {
  let db: FreshDatabase | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it("removes the person's mail files, named as an earlier release named them, and leaves other people's", async () => {
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
    const theirs = filesNaming(server, 'buurman@example.com');
    // PostgreSQL numbers the rows its own way: here the first person's mails get the ids the second's had.
    db = await freshPostgres();
    const target = await openStorage({ dataDir: elsewhere, databaseUrl: db.url, databasePoolSize: 1 });
    await target.close();
    const pg = probeDatabase({ dataDir: elsewhere, databaseUrl: db.url });
    await pg.run(`SELECT setval(pg_get_serial_sequence('outbox', 'id'), ${Number(mailsEach)})`);
    await pg.close();
    const env = { DATA_DIR: server.dataDir, DATABASE_URL: db.url };
    const migrated = await requests(['migrate-to-postgres'], { env });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stderr).toMatch(/mail files: \d+ renamed by their Message-ID/);

    const run = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(filesNaming(server, 'klant@example.com')).toEqual([]);
    expect(filesNaming(server, 'buurman@example.com')).toHaveLength(theirs.length);
  }, 90_000);
});

process.on('exit', () => rmSync(elsewhere, { recursive: true, force: true }));
