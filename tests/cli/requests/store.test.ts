/**
 * Which store the staff commands act on: the one the server's configuration
 * names (the environment, or .env), said before acting; never one they make.
 * Each test runs the real command as an operator does, on the backend of the
 * test matrix (vitest.config.ts), or on the one its case is about.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND, backendEnv, freshPostgres, type FreshDatabase } from '../../support/backend';
import { SPEC_DATA_ENV } from '../../support/data-folders';
import { probeDatabase } from '../../support/database-probe';
import { freePort } from '../../support/free-port';
import { spawnServer, type ServerProcess } from '../../support/server-process';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, submit, uploadedName, type TestServer } from '../../server/helpers';
import { requests, storeEnv, type CommandRun } from './run-requests';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function testServer(): Promise<TestServer> {
  const server = await buildTestApp();
  cleanups.push(() => server.dispose());
  return server;
}

async function storedFor(server: TestServer, email: string): Promise<string> {
  const [image1, image2] = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
  const res = await injectSubmit(server.app, 'ilve', { ...simpleRequest(image1, image2), client_email: email });
  expect(res.statusCode).toBe(201);
  return (res.json() as { reference: string }).reference;
}

/** Every command that opens the store, as an operator types it. */
const EVERY_COMMAND = [
  ['export', '--format', 'jsonl'],
  ['show', 'some-reference'],
  ['show', '--email', 'klant@example.com'],
  ['erase', '--email', 'klant@example.com'],
  ['deliveries'],
  ['redeliver', 'some-reference'],
];

/** A refusal: exit 1, nothing on stdout, the reason in one line on stderr. */
function expectRefusal(run: CommandRun, reason: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(reason)]);
}

/** How the store is named: the database file, or PostgreSQL's user, host, port and database without the password. */
function described({ dataDir, databaseUrl }: { dataDir: string; databaseUrl: string }): string {
  if (!databaseUrl) return `SQLite ${join(dataDir, 'requests.db')}`;
  const { username, hostname, port, pathname } = new URL(databaseUrl);
  return `PostgreSQL ${username}@${hostname}:${port || 5432}${pathname}`;
}

describe('the store the commands act on', { timeout: 60_000 }, () => {
  it('is named on stderr before the command acts on it, with no password', async () => {
    const server = await testServer();
    const reference = await storedFor(server, 'klant@example.com');
    const url = server.config.databaseUrl && Object.assign(new URL(server.config.databaseUrl), { password: 'not-for-the-log' }).toString();
    const run = await requests(['show', reference], { env: { DATA_DIR: server.dataDir, DATABASE_URL: url } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`${described(server.config)}\n`);
    expect(JSON.parse(run.stdout)).toMatchObject({ reference });
  });

  it.runIf(BACKEND === 'sqlite')('is refused where DATA_DIR does not exist, and nothing is made there', async () => {
    const missing = join(tempFolder('no-store-'), 'data');
    for (const args of EVERY_COMMAND) {
      expectRefusal(await requests(args, { env: { DATA_DIR: missing } }), /^SQLite .*\/data\/requests\.db does not exist\. Nothing was done: check DATA_DIR .*\.env/);
    }
    expect(existsSync(missing)).toBe(false);
    // Nothing configured at all, as in a bare folder: the default ./data is not made either.
    const bare = tempFolder('bare-');
    expectRefusal(await requests(['erase', '--email', 'klant@example.com'], { cwd: bare }), /requests\.db does not exist/);
    expect(readdirSync(bare)).toEqual([]);
  });

  it.runIf(BACKEND === 'sqlite')('is refused where requests.db holds no portal data, and the file is left as it was', async () => {
    const dataDir = tempFolder('empty-store-');
    writeFileSync(join(dataDir, 'requests.db'), '');
    for (const args of EVERY_COMMAND) expectRefusal(await requests(args, { env: { DATA_DIR: dataDir } }), /requests\.db holds no portal data/);
    expect(readdirSync(dataDir)).toEqual(['requests.db']);
    expect(statSync(join(dataDir, 'requests.db')).size).toBe(0);
  });

  it.runIf(BACKEND === 'postgres')(
    'after the move to PostgreSQL, erase without DATABASE_URL refuses and makes no database; with it, the person is erased there',
    async () => {
      const server = await testServer();
      const reference = await storedFor(server, 'marie.dupont@example.com');
      const withoutUrl = await requests(['erase', '--email', 'marie.dupont@example.com'], { env: { DATA_DIR: server.dataDir } });
      expectRefusal(withoutUrl, /^SQLite .*requests\.db does not exist\. Nothing was done: check DATA_DIR \(SQLite\) and DATABASE_URL \(PostgreSQL\)/);
      expect(existsSync(join(server.dataDir, 'requests.db'))).toBe(false);
      expect(await server.sql.all('SELECT reference FROM requests')).toEqual([{ reference }]);

      const erased = await requests(['erase', '--email', 'marie.dupont@example.com'], { env: storeEnv(server.config) });
      expect(erased.code).toBe(0);
      expect(erased.stderr).toBe(`${described(server.config)}\n`);
      expect(erased.stdout).toMatch(/^Erased from PostgreSQL .*:\n {2}their requests \(table requests\) +1\n/);
      expect(await server.sql.all('SELECT reference FROM requests')).toEqual([]);
    },
  );

  it.runIf(BACKEND === 'postgres')('is refused where the PostgreSQL database has no tables, and gets none', async () => {
    const empty: FreshDatabase = await freshPostgres();
    cleanups.push(() => empty.drop());
    for (const args of EVERY_COMMAND) {
      expectRefusal(await requests(args, { env: { DATABASE_URL: empty.url } }), /^PostgreSQL postgres@127\.0\.0\.1:5432\/portal_test_\w+ holds no portal data/);
    }
    const probe = probeDatabase({ dataDir: '', databaseUrl: empty.url });
    expect(await probe.all("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
    await probe.close();
  });
});

describe('.env, read by the server and the commands alike', { timeout: 90_000 }, () => {
  it('the server started in a folder with .env stores where it says, and the commands run there act on that store', async () => {
    const folder = tempFolder('env-file-');
    const backend = await backendEnv();
    cleanups.push(() => backend.drop());
    const settings = { DATA_DIR: './portal-data', ...SPEC_DATA_ENV, ...backend.env };
    writeFileSync(join(folder, '.env'), Object.entries(settings).map(([name, value]) => `${name}=${value}\n`).join(''));

    const port = await freePort();
    const server: ServerProcess = await spawnServer(port, {}, { cwd: folder });
    cleanups.push(() => server.stop());
    const photos = [await uploadedName(server.url, await png()), await uploadedName(server.url, await png())];
    const res = await submit(server.url, 'ilve', simpleRequest(photos[0], photos[1]));
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };
    const store = { dataDir: join(folder, 'portal-data'), databaseUrl: backend.env.DATABASE_URL ?? '' };
    if (!store.databaseUrl) expect(existsSync(join(store.dataDir, 'requests.db'))).toBe(true);

    const shown = await requests(['show', reference], { cwd: folder });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toBe(`${described(store)}\n`);
    expect(JSON.parse(shown.stdout)).toMatchObject({ reference, photos: [...photos].sort() });
    // The environment wins over the file, for the commands as for the server.
    expectRefusal(await requests(['show', reference], { cwd: folder, env: { DATA_DIR: './elsewhere', DATABASE_URL: '' } }), /elsewhere\/requests\.db does not exist/);
  });
});
