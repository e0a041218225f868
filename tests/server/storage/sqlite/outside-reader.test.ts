/**
 * SQLite beside a running server, as a backup script, the sqlite3 shell or a
 * staff command reads it: a second process opens and closes the database
 * while requests arrive. Every request answered 201 must be in the database
 * that a crash (kill -9) and a restart leave, and the outside readers must
 * see them while the server runs (POSIX locks belong to the process: a
 * descriptor of the database file opened and closed beside SQLite's own
 * drops them, and a reader then deletes the WAL under the server).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../../../support/backend';
import { freePort } from '../../../support/free-port';
import { spawnServer, type ServerProcess } from '../../../support/server-process';
import { png, simpleRequest, submit, uploadedName } from '../../helpers';

const SUBMITS = 120;
/** The sqlite3 shell where installed (CI installs it); otherwise a Node process that does the same. */
const SQLITE3 = spawnSync('sqlite3', ['-version']).status === 0 ? 'sqlite3' : undefined;

const SERVER_ENV = { RATE_LIMIT_UPLOADS: '100000', RATE_LIMIT_SUBMITS: '100000', MAX_CONNECTIONS_PER_CLIENT: '10000', PHOTO_DECODE_PER_CLIENT: '1000', PHOTO_QUOTA_PER_CLIENT_MB: '100000', MAILS_PER_CLIENT_PER_HOUR: '100000' };

/** Counts the requests every `everyMs` in a fresh connection each time, as a script in a loop does. */
function outsideReader(database: string, everyMs: number): { stop(): Promise<number> } {
  const count = 'SELECT count(*) FROM requests';
  const loop = SQLITE3
    ? spawn('bash', ['-c', `n=0; while :; do sqlite3 '${database}' '${count}' >/dev/null 2>&1; n=$((n+1)); echo $n; sleep ${everyMs / 1000}; done`])
    : spawn(process.execPath, [
        '-e',
        `const { DatabaseSync } = require('node:sqlite'); let n = 0;
         setInterval(() => { try { const db = new DatabaseSync(${JSON.stringify(database)}, { readOnly: true }); db.prepare(${JSON.stringify(count)}).get(); db.close(); } catch {} console.log(++n); }, ${everyMs});`,
      ]);
  let reads = 0;
  loop.stdout!.on('data', (d: Buffer) => (reads = Number(d.toString().trim().split('\n').pop())));
  return {
    async stop() {
      loop.kill('SIGKILL');
      await new Promise((r) => loop.once('exit', r));
      return reads;
    },
  };
}

/** The references in the database file, read by a process of its own (as a staff tool would). */
function referencesInFile(database: string): Set<string> {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return new Set((db.prepare('SELECT reference FROM requests').all() as { reference: string }[]).map((r) => r.reference));
  } finally {
    db.close();
  }
}

describe.runIf(BACKEND === 'sqlite')(`SQLite read by another process while the server runs (${SQLITE3 ?? 'node:sqlite'} as the reader)`, () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function server(dataDir: string): Promise<ServerProcess> {
    const started = await spawnServer(await freePort(), { DATA_DIR: dataDir, ...SERVER_ENV });
    cleanup.push(() => started.stop());
    return started;
  }

  it('keeps every acknowledged request through the reads, kill -9 and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outside-reader-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = join(dataDir, 'requests.db');
    const first = await server(dataDir);
    const photo = await png();
    const reader = outsideReader(database, 20);
    const acknowledged: string[] = [];
    const seenWhileRunning = new Set<string>();
    for (let i = 0; i < SUBMITS; i++) {
      const [image1, image2] = await Promise.all([uploadedName(first.url, photo, 'a.png', 'image/png'), uploadedName(first.url, photo, 'b.png', 'image/png')]);
      const res = await submit(first.url, 'ilve', simpleRequest(image1, image2), { 'idempotency-key': crypto.randomUUID() });
      expect(res.status).toBe(201);
      acknowledged.push(((await res.json()) as { reference: string }).reference);
      // A staff tool opening the file now sees what was acknowledged so far.
      if (i % 30 === 29) for (const r of referencesInFile(database)) seenWhileRunning.add(r);
    }
    const reads = await reader.stop();
    expect(reads).toBeGreaterThan(20);
    for (const r of referencesInFile(database)) seenWhileRunning.add(r);
    const unseen = acknowledged.filter((r) => !seenWhileRunning.has(r)).length;

    await first.kill9();
    const again = await server(dataDir);
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    const stored = referencesInFile(database);
    const lost = acknowledged.filter((r) => !stored.has(r)).length;
    expect({ acknowledged: acknowledged.length, unseenByReadersWhileRunning: unseen, lostAfterKill9: lost }).toEqual({
      acknowledged: SUBMITS,
      unseenByReadersWhileRunning: 0,
      lostAfterKill9: 0,
    });
  }, 180_000);

  it('backs up while it runs, as the README says: the copy holds every request acknowledged before it, and a server starts on it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'backup-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const [dataDir, backupDir] = [join(root, 'data'), join(root, 'backup')];
    const running = await server(dataDir);
    const photo = await png();
    const send = async () => {
      const [image1, image2] = [await uploadedName(running.url, photo, 'a.png', 'image/png'), await uploadedName(running.url, photo, 'b.png', 'image/png')];
      const res = await submit(running.url, 'ilve', simpleRequest(image1, image2), { 'idempotency-key': crypto.randomUUID() });
      return ((await res.json()) as { reference: string }).reference;
    };
    const before = [await send(), await send(), await send()];
    // The database first (one consistent snapshot), then the photo files it names.
    mkdirSync(backupDir, { mode: 0o700 });
    const copy = join(backupDir, 'requests.db');
    const backup = SQLITE3
      ? spawnSync('sqlite3', [join(dataDir, 'requests.db'), `.backup '${copy}'`], { encoding: 'utf8' })
      : spawnSync(process.execPath, ['-e', `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(join(dataDir, 'requests.db'))}).exec(${JSON.stringify(`VACUUM INTO '${copy}'`)})`], { encoding: 'utf8' });
    expect(backup.status, backup.stderr).toBe(0);
    cpSync(join(dataDir, 'photos'), join(backupDir, 'photos'), { recursive: true });
    cpSync(join(dataDir, 'photo-url.key'), join(backupDir, 'photo-url.key'));
    const after = await send();
    await running.stop();

    const restored = await server(backupDir);
    const held = referencesInFile(copy);
    expect(before.every((r) => held.has(r)) && !held.has(after)).toBe(true);
    expect((await fetch(`${restored.url}/readyz`)).status).toBe(200);
  }, 120_000);
});
