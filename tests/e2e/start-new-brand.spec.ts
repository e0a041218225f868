/**
 * `npm start` after a brand author added a brand but built nothing: it must
 * serve the new brand (rebuilding first) or refuse with validate's message;
 * never a 200 page saying the brand does not exist.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { SPEC_BUILD } from './support/paths';
import { copyWholeProject, exitOf, runNpm, waitForUrl } from './support/project-copy';

describe('npm start after adding a brand without a build', () => {
  let project: ReturnType<typeof copyWholeProject>;
  let dataDir: string;
  const startEnv = async () => ({ PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, MIN_FREE_DISK_MB: '0', SMTP_URL: '', LOG_LEVEL: 'warn' });

  beforeAll(() => {
    project = copyWholeProject();
    dataDir = mkdtempSync(join(tmpdir(), 'portal-start-'));
    // The build of the project (the spec's brands) as it was before the brand was added.
    cpSync(process.env.E2E_WEB_ROOT ?? SPEC_BUILD.webRoot, join(project.dir, 'dist/web'), { recursive: true });
    const made = runNpm(project.dir, ['run', 'brand', '--', 'new', 'acme', '--like', 'teka']);
    return exitOf(made).then((status) => {
      expect(status, made.output()).toBe(0);
      // Acme serves Belgium and Luxembourg only.
      const brandFile = join(project.dir, 'brands/acme.json');
      writeFileSync(brandFile, readFileSync(brandFile, 'utf8').replace('"countries": ["be", "fr", "nl", "lu"]', '"countries": ["be", "lu"]'));
    });
  });
  afterAll(() => {
    project?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a brand that does not validate, with validate’s own message', async () => {
    const brandFile = join(project.dir, 'brands/acme.json');
    const original = readFileSync(brandFile, 'utf8');
    writeFileSync(brandFile, original.replace('"id": "acme",', '"id": "acme"'));
    try {
      const start = runNpm(project.dir, ['start'], await startEnv());
      expect(await exitOf(start)).toBe(1);
      expect(start.output()).toContain('npm start will not serve the portal: npm run validate finds these problems.');
      expect(start.output()).toMatch(/brands\/acme\.json:\d+:3: a comma is missing here/);
    } finally {
      writeFileSync(brandFile, original);
    }
  });

  it('rebuilds, then serves the new brand’s pages for its countries, and the 404 page for the others', async () => {
    const env = await startEnv();
    const start = runNpm(project.dir, ['start'], env);
    try {
      const base = `http://127.0.0.1:${env.PORT}`;
      await waitForUrl(`${base}/healthz`, start, 240_000);
      expect(start.output()).toMatch(/brands\/\S+ changed after the last build: running npm run build/);
      const response = await fetch(`${base}/acme/nl/be`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<title>Acme | Service</title>');
      expect(html).not.toContain('Pagina niet gevonden');
      expect((await fetch(`${base}/acme/fr/lu`)).status).toBe(200);
      for (const other of ['/acme/nl/nl', '/acme/fr/fr']) {
        const notServed = await fetch(`${base}${other}`);
        expect(notServed.status).toBe(404);
        expect(await notServed.text()).toContain('Pagina niet gevonden');
      }
    } finally {
      await start.stop();
    }
  }, 300_000);
});
