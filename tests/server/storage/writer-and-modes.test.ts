import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND, freshPostgres } from '../../support/backend';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('storage that cannot store', () => {
  it.runIf(BACKEND === 'sqlite')('a dead writer thread turns /readyz red and makes submits answer 503 at once instead of hanging', async () => {
    server = await buildTestApp();
    const { app } = server;
    const [a, b] = [await injectUpload(app, await png()), await injectUpload(app, await png())];
    expect((await app.inject('/readyz')).statusCode).toBe(200);

    // What a crash of the thread looks like from outside: it exits.
    await (app.requestStore as unknown as { writer: { thread: Worker } }).writer.thread.terminate();

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', problems: ['writer'] });
    const res = await injectSubmit(app, 'ilve', simpleRequest(a, b));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({ error: expect.stringContaining('try again later') });
  });

  it.runIf(BACKEND === 'postgres')('a database that is gone turns /readyz red and makes submits answer 503', async () => {
    const backend = await freshPostgres();
    server = await buildTestApp({ DATABASE_URL: backend.url });
    const { app } = server;
    const [a, b] = [await injectUpload(app, await png()), await injectUpload(app, await png())];
    expect((await app.inject('/readyz')).statusCode).toBe(200);

    // The database disappears under the running server (its connections are ended with it).
    await backend.drop();

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', problems: ['database'] });
    const res = await injectSubmit(app, 'ilve', simpleRequest(a, b));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({ error: expect.stringContaining('try again later') });
  });
});

describe('files holding personal data', () => {
  it.runIf(BACKEND === 'sqlite')('are readable by the server user only: database 0600, photos 0600, folders 0700', async () => {
    server = await buildTestApp();
    const { app, dataDir } = server;
    const [a, b] = [await injectUpload(app, await png()), await injectUpload(app, await png())];
    expect((await injectSubmit(app, 'ilve', simpleRequest(a, b))).statusCode).toBe(201);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'photos'))).toBe(0o700);
    const dbFiles = readdirSync(dataDir).filter((f) => f.startsWith('requests.db'));
    expect(dbFiles).toContain('requests.db-wal');
    for (const file of dbFiles) expect([file, mode(join(dataDir, file))]).toEqual([file, 0o600]);
    for (const photo of [a, b]) expect(mode(join(dataDir, 'photos', photo))).toBe(0o600);
  });
});
