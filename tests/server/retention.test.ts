import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, extendedRequest, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from './helpers';

const DAY = 24 * 60 * 60_000;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Submits a request with two fresh photos; returns its reference and photo names. */
async function submitFor(app: TestServer['app'], brand: string, body: (a: string, b: string) => Record<string, unknown>) {
  const photos = [await injectUpload(app, await png()), await injectUpload(app, await png())] as const;
  const res = await injectSubmit(app, brand, body(...photos));
  expect(res.statusCode).toBe(201);
  return { reference: (res.json() as { reference: string }).reference, photos };
}

function openDb(dataDir: string) {
  return new Database(join(dataDir, 'requests.db'), { timeout: 5000 });
}

const emlFiles = (dataDir: string) => (existsSync(join(dataDir, 'outbox')) ? readdirSync(join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);
const photoFiles = (dataDir: string) => readdirSync(join(dataDir, 'photos'));

function allMailsDone(dataDir: string, count: number): boolean {
  const db = openDb(dataDir);
  try {
    const { n } = db.prepare('SELECT count(*) AS n FROM outbox WHERE sent_at IS NOT NULL').get() as { n: number };
    return n >= count && emlFiles(dataDir).length >= count;
  } finally {
    db.close();
  }
}

describe('retention (GDPR): the server removes requests past their period', () => {
  it('removes an old delivered request with its photos, outbox rows and .eml files, and keeps the rest', { timeout: 60_000 }, async () => {
    server = await buildTestApp({ RETENTION_DAYS: '90', RETENTION_INTERVAL_MS: '1000' });
    const { app, dataDir } = server;
    const old = await submitFor(app, 'teka', (a, b) => extendedRequest(a, b)); // confirmation, dealer and desk mail
    const recent = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b)); // confirmation and desk mail
    await until(() => allMailsDone(dataDir, 5), 'mails to be delivered');
    expect(emlFiles(dataDir)).toHaveLength(5);

    // 91 days pass for the first request: created and delivered then.
    const db = openDb(dataDir);
    const past = Date.now() - 91 * DAY;
    const { id } = db.prepare('SELECT id FROM requests WHERE reference = ?').get(old.reference) as { id: number };
    db.prepare('UPDATE requests SET created_at = ? WHERE id = ?').run(past, id);
    db.prepare('UPDATE outbox SET sent_at = ? WHERE request_id = ?').run(past + 60_000, id);
    const gone = await until(() => !db.prepare('SELECT 1 FROM requests WHERE id = ?').get(id), 'the retention timer');
    expect(gone).toBe(true);

    expect(db.prepare('SELECT count(*) AS n FROM outbox WHERE request_id = ?').get(id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM photos WHERE request_id = ?').get(id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT reference FROM requests').all()).toEqual([{ reference: recent.reference }]);
    db.close();
    await until(() => photoFiles(dataDir).length === 2 || undefined, 'photo files to go');
    expect(photoFiles(dataDir).sort()).toEqual([...recent.photos].sort());
    expect(emlFiles(dataDir)).toHaveLength(2);
  });

  it('keeps an old request whose mail is still waiting to be delivered', { timeout: 60_000 }, async () => {
    server = await buildTestApp({ RETENTION_DAYS: '1', RETENTION_INTERVAL_MS: '1000', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'service@portal.example.com', MAIL_RETRY_BASE_MS: '3600000' });
    const { app, dataDir } = server;
    const { reference } = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    const given = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    const db = openDb(dataDir);
    // Each mail's first (failing) attempt is recorded before the clock is turned back, so the sender cannot overwrite it.
    await until(() => (db.prepare('SELECT count(*) AS n FROM outbox WHERE attempts = 0').get() as { n: number }).n === 0 || undefined, 'first attempts');
    const past = Date.now() - 5 * DAY;
    db.prepare('UPDATE requests SET created_at = ?').run(past);
    // The second one's mail was given up on long ago: its retention ran out; the first's is still queued.
    db.prepare('UPDATE outbox SET failed_at = ? WHERE request_id = (SELECT id FROM requests WHERE reference = ?)').run(past, given.reference);
    await until(() => !db.prepare('SELECT 1 FROM requests WHERE reference = ?').get(given.reference), 'the retention timer');
    expect(db.prepare('SELECT reference FROM requests').all()).toEqual([{ reference }]);
    db.close();
  });
});

/** Runs `npm run requests -- …`; returns what it printed and logged. */
function requestsCli(dataDir: string, ...args: string[]): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`requests ${args.join(' ')} failed: ${run.stderr}`);
  return run;
}

describe('npm run requests -- show / erase --email (subject access and erasure)', () => {
  it('shows everything held about one person, then erases it all without logging who', { timeout: 60_000 }, async () => {
    server = await buildTestApp();
    const { app, dataDir } = server;
    const person = 'Marie.Dupont@Example.com';
    const theirs = await submitFor(app, 'teka', (a, b) => ({ ...extendedRequest(a, b), client_email: person, last_name: 'Marie Dupont' }));
    const again = await submitFor(app, 'ilve', (a, b) => ({ ...simpleRequest(a, b), client_email: 'marie.dupont@example.com', last_name: 'Marie Dupont' }));
    const other = await submitFor(app, 'ilve', (a, b) => simpleRequest(a, b));
    // Confirmations, the dealer's notice and the desk's mails: 3 + 2 + 2.
    await until(() => allMailsDone(dataDir, 7), 'mails to be delivered');

    const shown = JSON.parse(requestsCli(dataDir, 'show', '--email', 'marie.dupont@example.com').stdout) as {
      requests: { reference: string; request: Record<string, unknown>; photos: { name: string; path: string }[]; mails: { recipient: string }[] }[];
    };
    expect(shown.requests.map((r) => r.reference)).toEqual([theirs.reference, again.reference]);
    expect(shown.requests[0].request).toMatchObject({ last_name: 'Marie Dupont', client_email: person });
    expect(shown.requests[0].photos.map((p) => p.name).sort()).toEqual([...theirs.photos].sort());
    for (const photo of shown.requests[0].photos) expect(existsSync(photo.path)).toBe(true);
    expect(shown.requests[0].mails.map((m) => m.recipient).sort()).toEqual(['dealer@example.com', person.toLowerCase(), 'servicedesk@teka.example.com'].sort());

    const erasure = requestsCli(dataDir, 'erase', '--email', person);
    expect(JSON.parse(erasure.stderr)).toMatchObject({ event: 'erasure', requests: 2, photos: 4, mails: 5 });
    expect(erasure.stdout + erasure.stderr).not.toMatch(/dupont|marie/i);

    expect(JSON.parse(requestsCli(dataDir, 'show', '--email', person).stdout)).toEqual({ requests: [], otherMails: [] });
    expect(photoFiles(dataDir).sort()).toEqual([...other.photos].sort());
    expect(emlFiles(dataDir)).toHaveLength(2);
    const db = openDb(dataDir);
    expect(db.prepare('SELECT reference FROM requests').all()).toEqual([{ reference: other.reference }]);
    expect(db.prepare("SELECT count(*) AS n FROM outbox WHERE body LIKE '%Dupont%' OR recipient LIKE '%dupont%'").get()).toEqual({ n: 0 });
    db.close();
    // The server goes on: the erased photos cannot be claimed, new requests are stored.
    expect((await injectSubmit(app, 'ilve', simpleRequest(...theirs.photos))).statusCode).toBe(422);
  });
});
