/**
 * Another process holds the database's write lock (an outside sqlite3 in
 * BEGIN IMMEDIATE; with PostgreSQL, LOCK TABLE in another session) while
 * customers submit, upload and post the form without scripts. What must
 * hold: each is told 503 with Retry-After (a page in the route's language for
 * the no-script post, JSON for the API), never 500; /readyz is red meanwhile;
 * the log says so once, as a lock at warn level, and once when it is back;
 * and once the lock is released the same retry is stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFUSAL_HOLDS_MS } from '../../../../src/server/storage/database-state';
import { BACKEND } from '../../../support/backend';
import { captureLogs, type LogLine } from '../../log-capture';
import { count, png, simpleRequest, startTestServer, submit, uploadedName, uploadPhoto, type TestServer } from '../../helpers';
import { formBody, NO_SCRIPT_WEB_FILES, postForm, seedOf, twoPhotos, typedValues } from '../../no-script/no-script-support';

let server: TestServer | undefined;
let holder: ChildProcess | pg.Client | undefined;
afterEach(async () => {
  vi.useRealTimers();
  if (holder instanceof pg.Client) await holder.end();
  else holder?.kill('SIGKILL');
  holder = undefined;
  await server?.dispose();
  server = undefined;
});

/** A process of its own in BEGIN IMMEDIATE on the server's SQLite file until its stdin closes. */
async function sqliteLock(file: string): Promise<{ release(): Promise<void> }> {
  const child = spawn(process.execPath, [
    '-e',
    `const { DatabaseSync } = require('node:sqlite');
     const db = new DatabaseSync(${JSON.stringify(file)});
     db.exec('BEGIN IMMEDIATE'); console.log('locked');
     process.stdin.resume(); process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });`,
  ]);
  holder = child;
  await once(child.stdout!, 'data');
  return {
    async release() {
      child.stdin!.end();
      await once(child, 'exit');
      holder = undefined;
    },
  };
}

/** Another PostgreSQL session holding an exclusive lock on the tables a submit and an upload write. */
async function postgresLock(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  holder = client;
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE requests, photos IN ACCESS EXCLUSIVE MODE');
  return { release: async () => void (await client.query('ROLLBACK')) };
}

const lockLines = (lines: LogLine[]) => lines.filter((l) => /database (locked|unreachable|back)/.test(String(l.msg)));

describe(`the write lock held by another process (${BACKEND})`, () => {
  it('submits, uploads and no-script posts get 503 with Retry-After; /readyz red; one log line each way; the retry is stored after', async () => {
    const logs = captureLogs();
    server = await startTestServer({}, NO_SCRIPT_WEB_FILES, { logger: logs.logger });
    const photo = await png();
    const [image1, image2] = [await uploadedName(server.url, photo), await uploadedName(server.url, photo)];
    const body = simpleRequest(image1, image2);
    const lock = BACKEND === 'sqlite' ? await sqliteLock(join(server.dataDir, 'requests.db')) : await postgresLock(server.config.databaseUrl);

    const statuses: string[] = [];
    const attempts = 3;
    for (let i = 0; i < attempts; i++) {
      const api = await submit(server.url, 'ilve', body, { 'idempotency-key': 'key-locked' });
      statuses.push(`submit ${api.status}`);
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await api.json()).toEqual({ error: expect.stringMatching(/try again later/) });
    }
    const upload = await uploadPhoto(server.url, photo);
    statuses.push(`upload ${upload.status}`);
    expect(upload.status).toBe(503);
    expect(upload.headers.get('retry-after')).toMatch(/^\d+$/);
    const page = await postForm(server, '/ilve/nl/nl', formBody(typedValues(), await twoPhotos(), 'key-page'));
    statuses.push(`no-script ${page.status}`);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(seedOf(html).seed.notice?.kind).toBe('unavailable');
    expect(html).toContain('lang="nl"');
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ problems: ['database'] });

    // A balancer that heeds /readyz sends nothing more, and only a stored request proves the store is back:
    // once no write was refused for a while, /readyz lets requests in to find out; the next refusal makes it red again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + REFUSAL_HOLDS_MS + 1_000 });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const again = await submit(server.url, 'ilve', body, { 'idempotency-key': 'key-locked' });
    statuses.push(`submit after a quiet while ${again.status}`);
    expect(again.status).toBe(503);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    vi.useRealTimers();

    await lock.release();
    const retried = await submit(server.url, 'ilve', body, { 'idempotency-key': 'key-locked' });
    statuses.push(`retry ${retried.status}`);
    expect(retried.status).toBe(201);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(1);

    const told = lockLines(logs.lines);
    expect(told.map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringMatching(/^database locked/)],
      [30, expect.stringMatching(/^database back after/)],
    ]);
    expect(logs.lines.filter((l) => l.level >= 50)).toEqual([]);
    console.log(`[measure] outside write lock, ${BACKEND}: ${statuses.join(', ')}; stored ${1} of 1 acknowledged; lock log lines: ${told.length}`);
  }, 60_000);
});
