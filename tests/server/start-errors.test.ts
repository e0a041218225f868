import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND, backendEnv } from '../support/backend';
import { probeDatabase } from '../support/database-probe';
import { SPEC_DATA_ENV } from '../support/data-folders';
import { freePort } from '../support/free-port';
import { makeWebRoot } from '../support/web-root';
import { buildApp } from '../../src/server/app';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, testConfig } from './helpers';

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

/** What this process still holds of the database: SQLite, its open files; PostgreSQL, the other sessions on it. */
async function heldOpen(config: { dataDir: string; databaseUrl: string }): Promise<number> {
  if (!config.databaseUrl) {
    const links = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    return links.filter((link) => link.startsWith(config.dataDir)).length;
  }
  const probe = probeDatabase(config);
  try {
    const rows = await probe.all<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return Number(rows[0]!.n);
  } finally {
    await probe.close();
  }
}

describe('a start that fails after the database was opened', () => {
  it('says why and leaves nothing of the database open (here: DATA_DIR/photos is a file)', async () => {
    const backend = await backendEnv();
    const dir = mkdtempSync(join(root, 'photos-a-file-'));
    const config = testConfig(dir, backend.env);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(join(config.dataDir, 'photos'), 'a file where the folder of photos belongs');
    try {
      await expect(buildApp(config)).rejects.toThrow(/photos/);
      await expect.poll(() => heldOpen(config), { timeout: 5_000 }).toBe(0);
    } finally {
      await backend.drop();
    }
  });
});
