import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  count,
  extendedRequest,
  injectSubmit,
  injectUpload,
  keptMails,
  png,
  simpleRequest,
  storedPhotoNames,
  until,
  type TestServer,
} from '../helpers';

const DAY = 24 * 60 * 60_000;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** Submits a request with two fresh photos; returns its reference and photo names. */
async function submitFor(app: TestServer['app'], brand: string, body: (a: string, b: string) => Record<string, unknown>) {
  const photos = [await injectUpload(app, await png()), await injectUpload(app, await png())] as const;
  const res = await injectSubmit(app, brand, body(...photos));
  expect(res.statusCode).toBe(201);
  return { reference: (res.json() as { reference: string }).reference, photos };
}

/** The kept mails' names (SMTP_URL unset: .eml files, or rows with PostgreSQL). */
const emlFiles = async (s: TestServer) => (await keptMails(s)).map((m) => m.name);

async function allMailsDone(s: TestServer, n: number): Promise<boolean> {
  return (await count(s, 'SELECT count(*) AS n FROM outbox WHERE sent_at IS NOT NULL')) >= n && (await emlFiles(s)).length >= n;
}

const references = async (s: TestServer) => s.sql.all<{ reference: string }>('SELECT reference FROM requests');

describe('retention (GDPR): the server removes requests past their period', () => {
  it('removes an old delivered request with its photos, outbox rows and .eml files, and keeps the rest', { timeout: 60_000 }, async () => {
    server = await buildTestApp({ RETENTION_DAYS: '90', RETENTION_INTERVAL_MS: '1000' });
    const { app, sql } = server;
    const s = server;
    const old = await submitFor(app, 'teka', (a, b) => extendedRequest(a, b)); // confirmation, dealer and desk mail
    const recent = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b)); // confirmation and desk mail
    await until(() => allMailsDone(s, 5), 'mails to be delivered');
    expect(await emlFiles(s)).toHaveLength(5);

    // 91 days pass for the first request: created and delivered then.
    const past = Date.now() - 91 * DAY;
    const [{ id }] = await sql.all<{ id: number }>('SELECT id FROM requests WHERE reference = ?', [old.reference]);
    await sql.run('UPDATE requests SET created_at = ? WHERE id = ?', [past, id]);
    await sql.run('UPDATE outbox SET sent_at = ? WHERE request_id = ?', [past + 60_000, id]);
    await until(async () => (await count(s, 'SELECT count(*) AS n FROM requests WHERE id = ?', [id])) === 0, 'the retention timer');

    expect(await count(s, 'SELECT count(*) AS n FROM outbox WHERE request_id = ?', [id])).toBe(0);
    expect(await count(s, 'SELECT count(*) AS n FROM photos WHERE request_id = ?', [id])).toBe(0);
    expect(await references(s)).toEqual([{ reference: recent.reference }]);
    await until(async () => (await storedPhotoNames(s)).length === 2 || undefined, 'photo files to go');
    expect(await storedPhotoNames(s)).toEqual([...recent.photos].sort());
    // The files go after the rows, as the photos' do.
    await until(async () => (await emlFiles(s)).length === 2 || undefined, 'mail files to go');
    expect((await emlFiles(s)).sort()).toEqual([`${recent.reference}.confirmation.eml`, `${recent.reference}.desk.eml`].sort());
  });

  it('keeps an old request whose mail is still waiting to be delivered', { timeout: 60_000 }, async () => {
    server = await buildTestApp({ RETENTION_DAYS: '1', RETENTION_INTERVAL_MS: '1000', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'service@portal.example.com', MAIL_RETRY_BASE_MS: '3600000' });
    const { app, sql } = server;
    const s = server;
    const { reference } = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    const given = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    // Each mail's first (failing) attempt is recorded before the clock is turned back, so the sender cannot overwrite it.
    await until(async () => (await count(s, 'SELECT count(*) AS n FROM outbox WHERE attempts = 0')) === 0, 'first attempts');
    const past = Date.now() - 5 * DAY;
    await sql.run('UPDATE requests SET created_at = ?', [past]);
    // The second one's mail was given up on long ago: its retention ran out; the first's is still queued.
    await sql.run('UPDATE outbox SET failed_at = ? WHERE request_id = (SELECT id FROM requests WHERE reference = ?)', [past, given.reference]);
    await until(async () => (await count(s, 'SELECT count(*) AS n FROM requests WHERE reference = ?', [given.reference])) === 0, 'the retention timer');
    expect(await references(s)).toEqual([{ reference }]);
  });
});

/** Runs `npm run requests -- …`; returns what it printed and logged. */
function requestsCli(s: TestServer, ...args: string[]): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), ...args], {
    env: { ...process.env, DATA_DIR: s.dataDir, DATABASE_URL: s.config.databaseUrl },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`requests ${args.join(' ')} failed: ${run.stderr}`);
  return run;
}

describe('npm run requests -- show / erase --email (subject access and erasure)', () => {
  it('shows everything held about one person, then erases it all without logging who', { timeout: 60_000 }, async () => {
    server = await buildTestApp();
    const { app } = server;
    const s = server;
    const person = 'Marie.Dupont@Example.com';
    const theirs = await submitFor(app, 'teka', (a, b) => ({ ...extendedRequest(a, b), client_email: person, last_name: 'Marie Dupont' }));
    const again = await submitFor(app, 'ilve', (a, b) => ({ ...simpleRequest(a, b), client_email: 'marie.dupont@example.com', last_name: 'Marie Dupont' }));
    const other = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    // Confirmations, the dealer's notice and the desk's mails: 3 + 2 + 2.
    await until(() => allMailsDone(s, 7), 'mails to be delivered');

    const handOver = mkdtempSync(join(tmpdir(), 'subject-photos-'));
    const shown = JSON.parse(requestsCli(s, 'show', '--email', 'marie.dupont@example.com', '--photos-to', handOver).stdout) as {
      requests: { reference: string; request: Record<string, unknown>; photos: string[]; mails: { recipient: string }[] }[];
    };
    expect(shown.requests.map((r) => r.reference)).toEqual([theirs.reference, again.reference]);
    expect(shown.requests[0].request).toMatchObject({ last_name: 'Marie Dupont', client_email: person });
    expect([...shown.requests[0].photos].sort()).toEqual([...theirs.photos].sort());
    // The photos themselves are handed over too: the four of the person's two requests.
    expect(readdirSync(handOver).sort()).toEqual([...theirs.photos, ...again.photos].sort());
    rmSync(handOver, { recursive: true });
    expect(shown.requests[0].mails.map((m) => m.recipient).sort()).toEqual(['dealer@example.com', person.toLowerCase(), 'servicedesk@teka.example.com'].sort());

    const erasure = requestsCli(s, 'erase', '--email', person);
    // A line per table: what it held of the person in plain words, and the count.
    const report = Object.fromEntries(erasure.stdout.split('\n').slice(1, -1).map((line) => [line.replace(/\s+\d+$/, '').trim(), Number(/\d+$/.exec(line))]));
    expect(report).toMatchObject({
      'their requests (table requests)': 2,
      'photos of those requests (table photos)': 4,
      'mails and webhook deliveries of those requests (table outbox)': 5,
      'mails to them about other requests (table outbox)': 0,
      'other requests naming them as dealer, address taken out (table requests)': 0,
    });
    expect(erasure.stdout + erasure.stderr).not.toMatch(/dupont|marie/i);

    expect(JSON.parse(requestsCli(s, 'show', '--email', person).stdout)).toEqual({ requests: [], namedAsDealer: [], otherMails: [] });
    expect(await storedPhotoNames(s)).toEqual([...other.photos].sort());
    expect(await emlFiles(s)).toHaveLength(2);
    expect(await references(s)).toEqual([{ reference: other.reference }]);
    expect(await count(s, "SELECT count(*) AS n FROM outbox WHERE body LIKE '%Dupont%' OR recipient LIKE '%dupont%'")).toBe(0);
    // The server goes on: the erased photos cannot be claimed, new requests are stored.
    expect((await injectSubmit(app, 'ilve', simpleRequest(...theirs.photos))).statusCode).toBe(422);
  });
});
