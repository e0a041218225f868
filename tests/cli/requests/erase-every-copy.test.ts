/**
 * `erase` exits 0 only when no copy of the person is left: not on another
 * instance's volume (compose.yaml: each instance its own volume at /data, no
 * SMTP_URL), not in a mail folder it cannot read, and not because PostgreSQL
 * could not rewrite its tables while a backup held them (that is "erased,
 * space not yet reclaimed", never a failure after the rows went).
 */
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../../support/backend';
import { checkpointedTableFiles, privatePostgres, type PrivatePostgres } from '../../support/private-postgres';
import { png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../../server/helpers';
import { requests, storeEnv, type CommandRun } from './run-requests';

const SECRET = 'test-photo-link-secret-of-32-characters!';
const PERSON = 'zoe.copymarker@example.com';
const MARKER = 'copymarker';

let servers: TestServer[] = [];
let db: PrivatePostgres | undefined;
let held: pg.Client | undefined;
afterEach(async () => {
  await held?.end().catch(() => {});
  held = undefined;
  for (const s of servers.reverse()) await s.dispose();
  servers = [];
  db?.remove();
  db = undefined;
});

/** Files under `dir` whose bytes name the person. */
function filesNaming(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && readFileSync(path).toString('latin1').toLowerCase().includes(MARKER));
}

/** The person's request through `s`; resolves once every mail of the server is written. */
async function personSubmits(s: TestServer): Promise<void> {
  const photo = await png();
  const res = await submit(s.url, 'ilve', simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo), PERSON));
  expect(res.status).toBe(201);
  await until(async () => (await s.sql.all('SELECT id FROM outbox WHERE sent_at IS NULL')).length === 0 || undefined, 'every mail written');
}

/**
 * Runs a command as an operator who cannot read what the folder's mode forbids: as root (tests in
 * containers) without the capabilities that let root read any file.
 */
function asOperator(args: string[], env: Record<string, string>): Promise<CommandRun> {
  const root = process.getuid?.() === 0;
  return requests(args, { env, ...(root ? { wrap: ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'] } : {}) });
}

describe.runIf(BACKEND === 'postgres')('erase with two instances as compose.yaml runs them: one database, each its own volume at /data, no SMTP_URL', () => {
  for (const from of [0, 1]) {
    it(`run beside instance ${from + 1}, leaves none of the person's bytes on either volume or in the database's files`, async () => {
      db = await privatePostgres();
      const env = { DATABASE_URL: db.url, PHOTO_URL_SECRET: SECRET };
      // Each instance writes the mails of the request it took (the other is stopped meanwhile, so none leases them).
      for (let i = 0; i < 2; i++) {
        servers.push(await startTestServer(env));
        await personSubmits(servers[i]);
        await servers[i].app.close();
      }
      const [here, there] = [servers[from], servers[1 - from]];
      // Both volumes are mounted at /data: whatever an instance records of where it writes names the same folder.
      await here.sql.run("UPDATE portal_settings SET value = ? WHERE name LIKE 'mail_files_dir%'", [join(here.dataDir, 'outbox')]);
      // The other instance's volume is mounted in its own container only.
      const away = `${there.dataDir}-away`;
      renameSync(there.dataDir, away);
      let run: CommandRun;
      try {
        run = await requests(['erase', '--email', PERSON], { env: storeEnv(here.config) });
      } finally {
        renameSync(away, there.dataDir);
      }
      expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/cannot|error/i)]);
      expect(run.stdout).toMatch(/^ {2}their requests \(table requests\) +2$/m);
      expect([filesNaming(here.dataDir), filesNaming(there.dataDir)]).toEqual([[], []]);
      expect(filesNaming(await checkpointedTableFiles(db))).toEqual([]);
    }, 120_000);
  }
});

describe.runIf(BACKEND === 'sqlite')('erase and a mail folder it cannot read', () => {
  it('exits non-zero naming the folder and how to give access, having erased nothing; once it can read it, erases everything', async () => {
    servers = [await startTestServer()];
    const [s] = servers;
    await personSubmits(s);
    await s.app.close();
    const folder = join(s.dataDir, 'outbox');
    chmodSync(folder, 0o000);
    let run: CommandRun;
    try {
      run = await asOperator(['erase', '--email', PERSON], storeEnv(s.config));
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toContain(folder);
    expect(lines.at(-1)).toMatch(/cannot read.*nothing (was )?erased.*(chown|chmod)/i);
    expect(await s.sql.all('SELECT id FROM requests')).toHaveLength(1);

    const again = await requests(['erase', '--email', PERSON], { env: storeEnv(s.config) });
    expect(again.code, again.stderr).toBe(0);
    expect(filesNaming(s.dataDir)).toEqual([]);
  }, 60_000);
});

describe.runIf(BACKEND === 'postgres')('erase while a backup holds the tables (pg_dump takes ACCESS SHARE on each)', () => {
  async function holdTables(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await client.query('LOCK TABLE requests, outbox, photos IN ACCESS SHARE MODE');
    return client;
  }

  /** The person's request on a server of its own PostgreSQL (`cluster`), whose tables a backup then holds (`lock`). */
  async function personsRequestHeld(): Promise<{ s: TestServer; lock: pg.Client; cluster: PrivatePostgres }> {
    const cluster = (db = await privatePostgres());
    servers = [await startTestServer({ DATABASE_URL: cluster.url, PHOTO_URL_SECRET: SECRET })];
    await personSubmits(servers[0]);
    const lock = (held = await holdTables(cluster.url));
    return { s: servers[0], lock, cluster };
  }

  it('exits 0 saying the space is not yet reclaimed when the lock stays; run again once it is gone, it reclaims it', async () => {
    const { s, lock, cluster } = await personsRequestHeld();
    const run = await requests(['erase', '--email', PERSON], { env: storeEnv(s.config) });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error/i)]);
    expect(run.stdout).toMatch(/^ {2}their requests \(table requests\) +1$/m);
    expect(run.stdout).toMatch(/space not yet reclaimed/i);
    expect(await s.sql.all('SELECT id FROM requests')).toHaveLength(0);
    await lock.end();
    held = undefined;

    const again = await requests(['erase', '--email', PERSON], { env: storeEnv(s.config) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/not yet reclaimed/i);
    expect(filesNaming(await checkpointedTableFiles(cluster))).toEqual([]);
  }, 120_000);

  it('waits out a lock held for a few seconds and reclaims the space', async () => {
    const { s, lock, cluster } = await personsRequestHeld();
    // Released 3.5 s after the erase first waits for it: longer than one wait for a lock (2.5 s).
    const released = until(
      async () => (await s.sql.all("SELECT pid FROM pg_stat_activity WHERE query LIKE 'VACUUM%' AND wait_event_type = 'Lock'")).length > 0 || undefined,
      'the erase waiting for the lock',
      60_000,
    ).then(async () => {
      await new Promise((r) => setTimeout(r, 3_500));
      await lock.query('COMMIT');
    });
    const run = await requests(['erase', '--email', PERSON], { env: storeEnv(s.config) });
    await released;
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error/i)]);
    expect(run.stdout).not.toMatch(/not yet reclaimed/i);
    expect(filesNaming(await checkpointedTableFiles(cluster))).toEqual([]);
  }, 120_000);
});
