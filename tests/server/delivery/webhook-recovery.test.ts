import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeDatabase } from '../../support/database-probe';
import { freePort } from '../../support/free-port';
import { spawnServer, type ServerProcess } from '../../support/server-process';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { brandsWith, jpegWithGps, makeWebRoot, png, simpleRequest, submit, uploadedName } from '../helpers';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function submitSome(url: string, count: number): Promise<string[]> {
  const [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const images = await Promise.all([uploadedName(url, jpeg), uploadedName(url, pngBytes, 'b.png', 'image/png')]);
    const res = await submit(url, 'ilve', simpleRequest(...images), { 'Idempotency-Key': crypto.randomUUID() });
    expect(res.status).toBe(201);
    references.push(((await res.json()) as { reference: string }).reference);
  }
  return references;
}

describe('webhook delivery across a receiver outage and a kill -9 of the server', () => {
  it('gets every request to the receiver exactly once by webhook-id, losing none', async () => {
    const tls = selfSignedCert();
    const secret = newWebhookSecret();
    const root = mkdtempSync(join(tmpdir(), 'webhook-recovery-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }), () => tls.dispose());
    const receiverPort = await freePort();
    const serverPort = await freePort();
    const env = {
      DATA_DIR: join(root, 'data'),
      WEB_ROOT: makeWebRoot(join(root, 'web')),
      BRANDS_DIR: brandsWith({ ilve: { webhook: { url: `https://127.0.0.1:${receiverPort}/hooks`, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
      ILVE_WEBHOOK_SECRET: secret,
      PUBLIC_URL: `http://127.0.0.1:${serverPort}`,
      WEBHOOK_CA_FILE: tls.certFile,
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_TIMEOUT_MS: '2000',
      RATE_LIMIT_UPLOADS: '100000',
      RATE_LIMIT_SUBMITS: '100000',
    };

    // Up, then down (connections refused) while requests keep coming.
    let receiver: WebhookReceiver = await startWebhookReceiver(secret, tls, receiverPort);
    let server: ServerProcess = await spawnServer(serverPort, env);
    cleanup.push(() => server.stop());
    const before = await submitSome(server.url, 3);
    await receiver.waitFor((w) => w.event.data.reference === before[2]);
    const seenWhileUp = receiver.received;
    await receiver.close();
    const during = await submitSome(server.url, 5);
    // Each request made during the outage has been refused at least once before the kill.
    const probe = probeDatabase({ dataDir: env.DATA_DIR, databaseUrl: '' });
    cleanup.push(() => probe.close());
    const refused = async () =>
      (await probe.all<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE kind = 'webhook' AND sent_at IS NULL AND last_error IS NOT NULL"))[0].n;
    await expect.poll(refused, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(during.length);

    await server.kill9();
    server = await spawnServer(serverPort, env);
    const after = await submitSome(server.url, 2);
    receiver = await startWebhookReceiver(secret, tls, receiverPort);
    cleanup.push(() => receiver.close());

    const expected = [...before, ...during, ...after];
    const all = () => [...seenWhileUp, ...receiver.received];
    await expect
      .poll(() => new Set(all().map((w) => w.event.data.reference)).size, { timeout: 30_000, interval: 200 })
      .toBe(expected.length);
    expect(receiver.rejected).toEqual([]);
    // At least once on the wire; exactly once by webhook-id: one id per request, one request per id.
    const idsByReference = new Map<string, Set<string>>();
    for (const w of all()) idsByReference.set(w.event.data.reference, (idsByReference.get(w.event.data.reference) ?? new Set()).add(w.id));
    expect([...idsByReference.keys()].sort()).toEqual([...expected].sort());
    expect([...idsByReference.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(new Set(all().map((w) => w.id)).size).toBe(expected.length);
  }, 120_000);
});
