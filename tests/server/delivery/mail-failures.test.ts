import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { ConfigError } from '../../../src/server/config-error';
import { freePort } from '../../support/free-port';
import { brandsWith, jpegWithGps, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

describe('mail delivery failures', { timeout: 30_000 }, () => {
  it('makes SMTP down for good visible: one error log per mail with the reference, and /metrics', async () => {
    const logs: { level: number; msg: string; reference?: string; kind?: string }[] = [];
    const closedPort = await freePort();
    // The delivery workers' clock jumps past DELIVERY_GIVE_UP_HOURS once the first attempts are made.
    let offset = 0;
    server = await startTestServer(
      { SMTP_URL: `smtp://127.0.0.1:${closedPort}`, MAIL_FROM: 'service@portal.example.com', DELIVERY_GIVE_UP_HOURS: '1', METRICS_TOKEN: 'scrape-token' },
      {},
      {
        logger: { level: 'warn', stream: { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) } },
        clock: () => Date.now() + offset,
      },
    );
    const images = await Promise.all([uploadedName(server.url, await jpegWithGps()), uploadedName(server.url, await png(), 'b.png', 'image/png')]);
    const res = await submit(server.url, 'ilve', simpleRequest(...images));
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };

    const failedForGood = () => logs.filter((l) => l.level === 50 && l.reference === reference);
    await expect.poll(() => logs.filter((l) => l.msg.includes('mail is down')).length, { timeout: 15_000 }).toBe(1);
    // Both first attempts recorded before the clock jumps: one judged before and recorded after would be
    // due again a retry pause after the jump, beyond this test's wait (seen under load: 1 of 2).
    const scrape = async () => (await fetch(`${server!.url}/metrics`, { headers: { authorization: 'Bearer scrape-token' } })).text();
    const retried = (kind: string) => new RegExp(`portal_delivery_attempts_total\\{kind="${kind}",outcome="retry"\\} 1`);
    await expect.poll(scrape, { timeout: 15_000 }).toMatch(retried('desk'));
    await expect.poll(scrape, { timeout: 15_000 }).toMatch(retried('confirmation'));
    offset = 61 * 60_000;
    await expect.poll(() => failedForGood().length, { timeout: 15_000 }).toBe(2);
    expect(failedForGood().map((l) => l.kind).sort()).toEqual(['confirmation', 'desk']);
    expect(failedForGood()[0].msg).toMatch(/failed for good/);
    // A scrape's outbox figures may be the last second's (one read serves the scrapes of a second).
    await expect.poll(scrape, { timeout: 5_000 }).toMatch(/portal_outbox_failed\{kind="desk"\} 1/);
    const metrics = await scrape();
    expect(metrics).toMatch(/portal_delivery_attempts_total\{kind="desk",outcome="failed"\} 1/);
    expect(metrics).toMatch(/portal_delivery_attempts_total\{kind="desk",outcome="retry"\} 1/);
  });

  it('removes half-written .eml files a crash left behind when it starts', async () => {
    server = await startTestServer();
    await server.app.close();
    const outbox = join(server.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    writeFileSync(join(outbox, '.tmp-left-by-a-crash'), 'To: klant@example.com\n\nhalf a mail');
    writeFileSync(join(outbox, '7-confirmation.eml'), 'a finished mail');
    const again = await buildApp(server.config);
    await again.close();
    expect(existsSync(join(outbox, '.tmp-left-by-a-crash'))).toBe(false);
    expect(existsSync(join(outbox, '7-confirmation.eml'))).toBe(true);
  });

  it('refuses to start with a brand that has no service desk', async () => {
    server = await startTestServer();
    await server.app.close();
    const brandsDir = brandsWith({});
    const file = join(brandsDir, 'ilve.json');
    const { serviceDesk: _desk, ...brand } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(brand));
    await expect(buildApp({ ...server.config, brandsDir })).rejects.toThrow(/ilve\.json has no serviceDesk/);
  });

  it('refuses to start when a brand names a webhook secret that is not set', async () => {
    server = await startTestServer();
    await server.app.close();
    const brandsDir = brandsWith({ ilve: { webhook: { url: 'https://tickets.example.com/hooks', secretEnv: 'ILVE_WEBHOOK_SECRET' } } });
    const start = buildApp({ ...server.config, brandsDir, secretsEnv: {} });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(buildApp({ ...server.config, brandsDir, secretsEnv: {} })).rejects.toThrow(/ILVE_WEBHOOK_SECRET must be set/);
  });
});
