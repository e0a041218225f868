/**
 * An erasure request, done as the staff do it (`npm run requests -- erase`)
 * beside the running server: afterwards no byte of the person's address or
 * name is left in the data folder (database, write-ahead log, mail files,
 * photos) or, with PostgreSQL, in the database's own files, though another
 * customer's request named them as its dealer. That request stays, without them.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND } from '../../support/backend';
import { checkpointedTableFiles, privatePostgres, type PrivatePostgres } from '../../support/private-postgres';
import { extendedRequest, png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../helpers';

const run = promisify(execFile);
const SECRET = 'test-photo-link-secret-of-32-characters!';
/** Spellings of one mailbox, and a name, unusual enough that finding them anywhere can only be a leftover. */
const AS_CUSTOMER = 'Zoe.Erasemarker+portal@Example.com';
const AS_DEALER = 'zoe.erasemarker+dealer@example.COM';
const NAME = 'Verwijdermijnaam';
const MARKERS = ['erasemarker', NAME.toLowerCase()];

/** Files under `dir` whose bytes hold a marker (compared without case). */
function filesHolding(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, entry);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path).toString('latin1').toLowerCase();
    if (MARKERS.some((m) => text.includes(m))) found.push(entry);
  }
  return found;
}

describe('an erasure', { timeout: 120_000 }, () => {
  let db: PrivatePostgres | undefined;
  let server: TestServer;
  let other: string;

  beforeAll(async () => {
    db = BACKEND === 'postgres' ? await privatePostgres() : undefined;
    server = await startTestServer(db ? { DATABASE_URL: db.url, PHOTO_URL_SECRET: SECRET } : {});
    const photos = async () => [await uploadedName(server.url, await png(), 'a.png', 'image/png'), await uploadedName(server.url, await png(), 'b.png', 'image/png')];
    const [a1, a2] = await photos();
    const own = await submit(server.url, 'ilve', { ...simpleRequest(a1, a2), client_email: AS_CUSTOMER, last_name: NAME });
    expect(own.status).toBe(201);
    const [b1, b2] = await photos();
    const named = await submit(server.url, 'teka', { ...extendedRequest(b1, b2, 'nl'), notification: AS_DEALER });
    expect(named.status).toBe(201);
    other = ((await named.json()) as { reference: string }).reference;
    // Every mail is sent (written as .eml files) before the erasure, as it would be on a live portal.
    await until(async () => (await server.sql.all('SELECT id FROM outbox WHERE sent_at IS NULL')).length === 0, 'mails sent');
  }, 60_000);

  afterAll(async () => {
    await server?.dispose();
    db?.remove();
  });

  it('leaves no byte of the address or the name in the data folder or the database files, and keeps the other request without them', async () => {
    // Before: the person is where the test looks (with PostgreSQL, the mails too are in the database's files).
    const holding = async () => [...filesHolding(server.dataDir), ...(db ? filesHolding(await checkpointedTableFiles(db)) : [])];
    expect((await holding()).length).toBeGreaterThan(0);
    const erase = await run(process.execPath, ['--import', 'tsx', 'src/cli/requests.ts', 'erase', '--email', 'ZOE.ERASEMARKER@example.com'], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: db?.url ?? '' },
    });
    expect(MARKERS.some((m) => (erase.stdout + erase.stderr).toLowerCase().includes(m))).toBe(false);
    expect(erase.stdout).toMatch(/^ {2}their requests \(table requests\) +1$/m);
    expect(erase.stdout).toMatch(/^ {2}other requests naming them as dealer, address taken out \(table requests\) +1$/m);

    expect(filesHolding(server.dataDir)).toEqual([]);
    if (db) expect(filesHolding(await checkpointedTableFiles(db))).toEqual([]);

    const [kept] = await server.sql.all<{ payload: string }>('SELECT payload FROM requests WHERE reference = ?', [other]);
    expect(JSON.parse(kept.payload)).not.toHaveProperty('notification');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
