import { createServer, type Server } from 'node:https';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret } from '../../support/webhook-receiver';
import { brandsWith, count, jpegWithGps, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

const cleanup: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('a receiver that never answers', () => {
  it('holds at most WEBHOOK_MAX_IN_FLIGHT requests, each given up after the timeout and retried', async () => {
    const tls = selfSignedCert();
    cleanup.push(() => tls.dispose());
    let open = 0;
    let mostOpen = 0;
    // Reads each webhook and never answers.
    const silent: Server = createServer(tls, (req) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      req.on('close', () => open--);
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((r) => (silent.closeAllConnections(), silent.close(r))));
    const secret = newWebhookSecret();
    const url = `https://127.0.0.1:${(silent.address() as { port: number }).port}/hooks`;
    const server: TestServer = await startTestServer({
      BRANDS_DIR: brandsWith({ ilve: { webhook: { url, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
      ILVE_WEBHOOK_SECRET: secret,
      WEBHOOK_CA_FILE: tls.certFile,
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_MAX_IN_FLIGHT: '2',
      WEBHOOK_RETRY_BASE_MS: '50',
    });
    cleanup.push(() => server.dispose());

    const [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
    for (let i = 0; i < 5; i++) {
      const images = await Promise.all([uploadedName(server.url, jpeg), uploadedName(server.url, pngBytes, 'b.png', 'image/png')]);
      expect((await submit(server.url, 'ilve', simpleRequest(...images))).status).toBe(201);
    }
    // The portal keeps serving while every webhook hangs.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const timedOut = () =>
      count(server, "SELECT COUNT(*) AS n FROM outbox WHERE kind = 'webhook' AND attempts >= 1 AND last_error LIKE 'no answer within 300 ms%'");
    await expect.poll(timedOut, { timeout: 20_000, interval: 100 }).toBe(5);
    expect(mostOpen).toBeGreaterThan(0);
    expect(mostOpen).toBeLessThanOrEqual(2);
  }, 60_000);
});
