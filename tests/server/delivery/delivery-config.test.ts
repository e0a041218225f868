import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { ConfigError } from '../../../src/server/config-error';
import type { ServiceDesk } from '../../../src/core/types';
import { SPEC_SCHEMAS_DIR } from '../../support/data-folders';
import { newWebhookSecret } from '../../support/webhook-receiver';
import { brandsWith, buildTestApp, count, injectUpload, makeWebRoot, png, simpleRequest, testConfig } from '../helpers';

const SECRET = newWebhookSecret();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Ilve with this webhook, as a brand file would name it. */
function withWebhook(webhook: NonNullable<ServiceDesk['webhook']>): string {
  const dir = brandsWith({ ilve: { webhook } });
  folders.push(dir);
  return dir;
}

/** Builds the app on a fresh folder with `env` (on SQLite: these refusals come before any storage). */
function start(env: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'delivery-config-'));
  folders.push(root);
  return buildApp(testConfig(root, { ILVE_WEBHOOK_SECRET: SECRET, ...env }));
}

describe('webhook addresses at start', () => {
  it.each([
    ['https://169.254.169.254/latest/meta-data', /link-local address \(169\.254\.169\.254\)/],
    ['https://127.0.0.1:9443/hooks', /loopback address/],
    ['https://[fd00::7]/hooks', /private network \(\[fd00::7\]\)/],
    ['https://ticketbot:s3cr3t@tickets.example.com/hooks', /user name or password/],
  ])('refuses %s, naming the brand file and the fix', async (url, why) => {
    const started = start({ BRANDS_DIR: withWebhook({ url, secretEnv: 'ILVE_WEBHOOK_SECRET' }), PUBLIC_URL: 'https://service.example.com' });
    const error = await started.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^brands\/ilve\.json serviceDesk\.webhook\.url: /);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).not.toMatch(/s3cr3t/);
  });

  it('starts with a receiver in the company\'s own network when the brand file allows it', async () => {
    const brandsDir = withWebhook({ url: 'https://10.1.2.3/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true });
    const server = await buildTestApp({ BRANDS_DIR: brandsDir, ILVE_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://service.example.com' });
    try {
      const [a, b] = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
      const sent = await server.app.inject({ method: 'POST', url: '/api/forms/ilve', payload: simpleRequest(a, b) });
      expect(sent.statusCode, sent.body).toBe(201);
      // The request's webhook is queued for the private address, not refused.
      expect(await count(server, "SELECT count(*) AS n FROM outbox WHERE kind = 'webhook' AND recipient LIKE ?", ['%10.1.2.3%'])).toBe(1);
    } finally {
      await server.dispose();
    }
  });
});

describe('PUBLIC_URL, the origin of the photo links webhooks carry', () => {
  it('is required at start once a brand has a webhook, in one sentence naming the brand', async () => {
    const started = start({ BRANDS_DIR: withWebhook({ url: 'https://tickets.example.com/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET' }) });
    await expect(started).rejects.toThrow(ConfigError);
    await expect(start({ BRANDS_DIR: withWebhook({ url: 'https://tickets.example.com/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET' }) })).rejects.toThrow(
      /^PUBLIC_URL must be set: the webhook of brands\/ilve\.json carries links to the photos, which need the portal's public address \(e\.g\. PUBLIC_URL=https:\/\/service\.example\.com\)$/,
    );
  });

  it('may be API_BASE, the public origin the pages already call', async () => {
    const brandsDir = withWebhook({ url: 'https://tickets.example.com/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET' });
    const server = await buildTestApp({ BRANDS_DIR: brandsDir, ILVE_WEBHOOK_SECRET: SECRET, API_BASE: 'https://api.service.example.com' });
    expect(server.config.publicUrl).toBe('https://api.service.example.com');
    await server.dispose();
  });

  it('is not needed where no brand has a webhook: a local start stays one command', async () => {
    const server = await buildTestApp();
    expect(server.config.publicUrl).toBe('');
    await server.dispose();
  });

  it('stops npm start with one line that says what to set', () => {
    const root = mkdtempSync(join(tmpdir(), 'delivery-config-'));
    folders.push(root);
    const brandsDir = withWebhook({ url: 'https://tickets.example.com/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET' });
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { PATH: process.env.PATH, DATA_DIR: join(root, 'data'), WEB_ROOT: makeWebRoot(join(root, 'web')), SCHEMAS_DIR: SPEC_SCHEMAS_DIR, BRANDS_DIR: brandsDir, ILVE_WEBHOOK_SECRET: SECRET, PORT: '0', HOST: '127.0.0.1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Configuration error: PUBLIC_URL must be set: the webhook of brands\/ilve\.json/)]);
  });
});
