/**
 * The production build: `npm run build` compiles the server to dist/server, and
 * a production install (dev dependencies pruned, so no tsx, vite or vitest)
 * serves the portal with `npm start` on plain Node and stores a request
 * through the writer thread.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/cli/build-server';
import { png, simpleRequest, submit, uploadedName, jpegWithGps } from '../server/helpers';
import { freePort } from '../support/free-port';
import { installSpecData } from '../support/data-folders';
import { ROOT, SPEC_BUILD } from './support/paths';
import { uploadInTwoParts } from '../support/upload-in-two-parts';
import { exitOf, runNpm, waitForUrl } from './support/project-copy';

/** The environment the server started with: the process of npm's group (`group`) that runs npm-start.mjs. */
function serverEnvironment(group: number): string[] {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === group && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('npm-start.mjs')) {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      }
    } catch {
      // A process that ended meanwhile.
    }
  }
  return [];
}

describe('a production install', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-production-'));
    // What a deploy ships: the build, the data the server reads (the spec's brands and data, as the build), the manifest and the launcher.
    for (const part of ['package.json', 'package-lock.json', '.npmrc']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    installSpecData(dir);
    mkdirSync(join(dir, 'src/cli'), { recursive: true });
    for (const launcher of ['npm-start.mjs', 'supported-node.mjs']) cpSync(join(ROOT, 'src/cli', launcher), join(dir, 'src/cli', launcher));
    cpSync(process.env.E2E_WEB_ROOT ?? SPEC_BUILD.webRoot, join(dir, 'dist/web'), { recursive: true });
    await buildServer(join(dir, 'dist/server'));
    // npm ci --omit=dev without downloading again: the installed tree less the dev packages. --offline: npm
    // answers from the tree and its cache or fails at once, never waits on a registry the machine may not reach.
    cpSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    execFileSync('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no dev tools', () => {
    for (const devTool of ['tsx', 'vite', 'vitest', 'esbuild']) expect(existsSync(join(dir, 'node_modules', devTool)), devTool).toBe(false);
  });

  it('serves the portal with npm start on plain Node and stores a request', async () => {
    const port = String(await freePort());
    const dataDir = join(dir, 'data');
    const start = runNpm(dir, ['start'], { PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, MIN_FREE_DISK_MB: '0', SMTP_URL: '', LOG_LEVEL: 'warn' });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForUrl(`${base}/healthz`, start, 60_000);
      const page = await fetch(`${base}/ilve/nl/be`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Ilve | Service</title>');
      const photo = await jpegWithGps();
      const body = simpleRequest(await uploadedName(base, photo), await uploadedName(base, photo));
      const stored = await submit(base, 'ilve', body, { 'idempotency-key': crypto.randomUUID() });
      expect(stored.status, await stored.clone().text()).toBe(201);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(readdirSync(dataDir)).toContain('requests.db');
      // glibc's heaps capped (README, "Memory"): photo decoding on several threads otherwise keeps a heap on each.
      expect(serverEnvironment(start.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
    } finally {
      await start.stop();
    }
    expect(start.output()).not.toMatch(/tsx|Cannot find (module|package)/);
  }, 120_000);

  // What a terminal (Ctrl-C), systemd or a process manager does: signal npm's own process, not the server's.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal} to the npm start process: an upload in flight finishes, exit 0, nothing left running`, async () => {
      const port = String(await freePort());
      const start = runNpm(dir, ['start'], { PORT: port, HOST: '127.0.0.1', DATA_DIR: join(dir, `data-${signal}`), MIN_FREE_DISK_MB: '0', LOG_LEVEL: 'warn' });
      try {
        await waitForUrl(`http://127.0.0.1:${port}/healthz`, start, 60_000);
        const upload = uploadInTwoParts(port, await png(), () => process.kill(start.child.pid!, signal));
        const sentAt = Date.now();
        const code = await exitOf(start);
        const answer = await upload;
        expect([answer.status, JSON.parse(answer.body)]).toEqual([201, { filename: expect.stringMatching(/\.png$/) }]);
        expect(code).toBe(0);
        expect(Date.now() - sentAt).toBeLessThan(10_000);
        // npm started the server in its own process group: no member of it is left.
        expect(() => process.kill(-start.child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
        await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      } finally {
        await start.stop();
      }
      expect(start.output()).not.toMatch(/Assertion failed|Segmentation|Abort/);
    }, 120_000);
  }
});
