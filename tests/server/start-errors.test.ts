import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND } from '../support/backend';
import { SPEC_DATA_ENV } from '../support/data-folders';
import { freePort } from '../support/free-port';
import { makeWebRoot } from '../support/web-root';
import { buildApp } from '../../src/server/app';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest } from './helpers';

const root = mkdtempSync(join(tmpdir(), 'start-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm start with a DATABASE_URL that leads nowhere', () => {
  it('stops with one plain line naming the database error, no stack trace', async () => {
    const nobody = await freePort(); // nothing listens there
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      cwd: join(import.meta.dirname, '../..'),
      env: {
        PATH: process.env.PATH,
        DATA_DIR: join(root, 'data'),
        WEB_ROOT: makeWebRoot(join(root, 'web')),
        ...SPEC_DATA_ENV,
        DATABASE_URL: `postgres://portal:secret-password@127.0.0.1:${nobody}/portal`,
        PHOTO_URL_SECRET: 'test-photo-link-secret-of-32-characters!',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Cannot start: database: connect ECONNREFUSED 127\.0\.0\.1:\d+$/)]);
  }, 40_000);
});

describe('a restored backup without DATA_DIR/photo-url.key', () => {
  // PostgreSQL requires PHOTO_URL_SECRET: no key file there.
  it.runIf(BACKEND === 'sqlite')('is refused at start in one line when the database holds requests (a new key would break the links already sent)', async () => {
    const server = await buildTestApp();
    try {
      const photo = await png();
      const res = await injectSubmit(server.app, 'ilve', simpleRequest(await injectUpload(server.app, photo), await injectUpload(server.app, photo)));
      expect(res.statusCode).toBe(201);
      await server.app.close();
      rmSync(join(server.dataDir, 'photo-url.key'));
      await expect(buildApp(server.config)).rejects.toThrow(/photo-url\.key is missing but the database holds requests: restore it from the backup/);
    } finally {
      await server.dispose();
    }
  });
});
