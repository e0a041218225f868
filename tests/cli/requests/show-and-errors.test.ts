/**
 * `show <reference>`, and how every command fails: one plain line on stderr,
 * no stack trace, a non-zero exit (2 for a command given wrongly).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../../server/helpers';
import { requests, storeEnv, type CommandRun } from './run-requests';

let server: TestServer;
let reference: string;
let photos: string[];
let folder: string;

beforeAll(async () => {
  server = await buildTestApp();
  photos = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
  const res = await injectSubmit(server.app, 'ilve', simpleRequest(photos[0], photos[1]));
  reference = (res.json() as { reference: string }).reference;
  folder = mkdtempSync(join(tmpdir(), 'requests-errors-'));
  // A .env the commands cannot read: a folder where the file should be.
  mkdirSync(join(folder, 'unreadable-env', '.env'), { recursive: true });
});
afterAll(async () => {
  await server.dispose();
  rmSync(folder, { recursive: true, force: true });
});

describe('npm run requests -- show <reference>', { timeout: 60_000 }, () => {
  it('prints that request with its deliveries and its photos’ names, as JSON', async () => {
    const run = await requests(['show', reference], { env: storeEnv(server.config) });
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as { reference: string; request: Record<string, unknown>; photos: string[]; mails: { kind: string; recipient: string }[] };
    expect(shown).toMatchObject({ reference, brand: 'ilve', request: { last_name: 'Jansen', client_email: 'klant@example.com' } });
    expect(shown.photos).toEqual([...photos].sort());
    expect(shown.mails.map((m) => [m.kind, m.recipient])).toEqual([
      ['confirmation', 'klant@example.com'],
      ['desk', 'servicedesk@ilve.example.com'],
    ]);
  });

  it('takes the reference as a customer reads it out: lower case, spaces, look-alikes', async () => {
    expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
    const spoken = [...reference.replace(/-/g, '').toLowerCase()].join(' ').replace(/0/g, 'o').replace(/1/g, 'l');
    const run = await requests(['show', spoken], { env: storeEnv(server.config) });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { reference: string }).reference).toBe(reference);
  });

  it('gives times in PORTAL_TIME_ZONE with its offset', async () => {
    const [{ created_at }] = await server.sql.all<{ created_at: number }>('SELECT created_at FROM requests WHERE reference = ?', [reference]);
    const run = await requests(['show', reference], { env: { ...storeEnv(server.config), PORTAL_TIME_ZONE: 'Asia/Kolkata' } });
    const { createdAt } = JSON.parse(run.stdout) as { createdAt: string };
    expect(createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    expect(Date.parse(createdAt)).toBe(Math.floor(Number(created_at) / 1000) * 1000);
    const brussels = JSON.parse((await requests(['show', reference], { env: storeEnv(server.config) })).stdout) as { createdAt: string };
    expect(brussels.createdAt).toMatch(/\+0[12]:00$/);
  });

  it('says in one line that an unknown reference is unknown, and exits 1', async () => {
    const run = await requests(['show', 'NO-SUCH-REF'], { env: storeEnv(server.config) });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim().split('\n').slice(-1)).toEqual([expect.stringMatching(/^No request with reference NO-SUCH-REF in (SQLite|PostgreSQL) /)]);
  });
});

/** A failure as the operator sees it: exit code, nothing on stdout, and on stderr the store's name (once opened) and one line. */
function expectOneLine(run: CommandRun, code: number, says: RegExp): void {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n').filter((line) => !/^(SQLite|PostgreSQL) \S+$/.test(line));
  expect(lines).toEqual([expect.stringMatching(says)]);
  expect(run.stderr).not.toMatch(/^\s+at |Error:|node:internal/m);
}

describe('every failure is one plain line', { timeout: 60_000 }, () => {
  const store = () => storeEnv(server.config);
  const cases: [string, () => { args: string[]; env?: Record<string, string>; cwd?: string }, number, RegExp][] = [
    ['an unknown reference to redeliver', () => ({ args: ['redeliver', 'NO-SUCH-REF'], env: store() }), 1, /^No request with reference NO-SUCH-REF in /],
    ['a time zone that is none', () => ({ args: ['deliveries'], env: { ...store(), PORTAL_TIME_ZONE: 'Europe/Nowhere' } }), 1, /^Configuration error: PORTAL_TIME_ZONE must be an IANA time zone .*"Europe\/Nowhere"$/],
    ['an unknown command', () => ({ args: ['purge'], env: store() }), 2, /^Unknown command "purge"\. Usage: npm run requests -- export \| show/],
    ['an unknown option', () => ({ args: ['export', '--bogus'], env: store() }), 2, /^Unknown option '--bogus'\. Usage: npm run requests -- export \[--out FILE/],
    ['an option without its value', () => ({ args: ['export', '--out'], env: store() }), 2, /^Option '--out <value>' argument missing\. Usage:/],
    ['a missing reference', () => ({ args: ['redeliver'], env: store() }), 2, /^redeliver takes a reference or --failed\. Usage: npm run requests -- redeliver <reference> \| redeliver --failed/],
    ['an address without @', () => ({ args: ['erase', '--email', 'dupont'], env: store() }), 2, /^"dupont" is not an e-mail address\./],
    ['an address given without --email', () => ({ args: ['erase', 'marie@example.com'], env: store() }), 2, /^Unexpected "marie@example\.com"\. Usage: npm run requests -- erase --email/],
    ['a folder that does not exist', () => ({ args: ['export', '--out', join(folder, 'nope', 'x.csv')], env: store() }), 1, /^Cannot write .*x\.csv: the folder .*nope does not exist$/],
    ['a DATA_DIR that does not exist', () => ({ args: ['deliveries'], env: { DATA_DIR: join(folder, 'nope') } }), 1, /^SQLite .*requests\.db does not exist\. Nothing was done/],
    ['a PostgreSQL that does not answer', () => ({ args: ['deliveries'], env: { DATABASE_URL: 'postgres://portal@127.0.0.1:1/portal' } }), 1, /^Cannot reach PostgreSQL portal@127\.0\.0\.1:1\/portal: .*ECONNREFUSED/],
    ['a DATABASE_URL that is not PostgreSQL’s', () => ({ args: ['deliveries'], env: { DATABASE_URL: 'mysql://db/portal' } }), 1, /^Configuration error: DATABASE_URL must start with postgres:\/\//],
    ['a .env that cannot be read', () => ({ args: ['deliveries'], cwd: join(folder, 'unreadable-env') }), 1, /^Configuration error: cannot read .*unreadable-env\/\.env: /],
  ];

  it.each(cases)('%s', async (_, given, code, says) => {
    const { args, env, cwd } = given();
    expectOneLine(await requests(args, { env, cwd }), code, says);
  });
});
