/**
 * A webhook receiver that trickles its answer (a byte now and then, slower than WEBHOOK_TIMEOUT_MS), then
 * recovers: the log says once that it went down and once that it is back, however the attempts under way
 * then end.
 */
import { createServer, type Server } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret } from '../../support/webhook-receiver';
import { brandsWith, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

let server: TestServer | undefined;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await server?.dispose();
  server = undefined;
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An HTTPS receiver that, while `trickling`, sends its 200 a byte every 150 ms; otherwise answers 204 at once. */
async function tricklingReceiver(tls: { key: Buffer; cert: Buffer }) {
  const state = { trickling: true, answered: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const receiver: Server = createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      if (!state.trickling) {
        state.answered++;
        res.writeHead(204).end();
        return;
      }
      const body = 'accepted, slowly';
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
      res.flushHeaders();
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= body.length) {
          clearInterval(timer);
          timers.delete(timer);
          res.end();
          return;
        }
        res.write(body[at++]);
      }, 150);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  return {
    state,
    url: `https://127.0.0.1:${port}/hooks/repairs`,
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearInterval);
        receiver.closeAllConnections();
        receiver.close(() => resolve());
      }),
  };
}

describe('a webhook receiver that trickles its answer', () => {
  it('is said to be down once and back once', async () => {
    const tls = selfSignedCert();
    const secret = newWebhookSecret();
    const receiver = await tricklingReceiver(tls);
    cleanup.push(() => receiver.close(), () => tls.dispose());
    const logs: { msg: string }[] = [];
    server = await startTestServer(
      {
        BRANDS_DIR: brandsWith({ ilve: { webhook: { url: receiver.url, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
        ILVE_WEBHOOK_SECRET: secret,
        WEBHOOK_CA_FILE: tls.certFile,
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_RETRY_BASE_MS: '300',
      },
      {},
      { logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as { msg: string }) } } },
    );
    const s = server;
    const photo = await png();
    const submitted = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await submit(s.url, 'ilve', simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo)));
        expect(res.status).toBe(201);
      }
    };
    await submitted(12);
    await new Promise((r) => setTimeout(r, 4_000));
    receiver.state.trickling = false;
    // Submits keep coming as it recovers: new attempts succeed while earlier ones still time out.
    await submitted(6);
    await expect
      .poll(async () => Number((await s.sql.all<{ n: number }>(`SELECT count(*) AS n FROM outbox WHERE kind = 'webhook' AND sent_at IS NULL`))[0].n), {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(0);
    // An attempt is logged once its result is recorded: the line may follow the row by a moment.
    await expect.poll(() => logs.filter((l) => /^delivery: webhook to ilve is back/.test(l.msg)).length, { timeout: 5_000 }).toBeGreaterThan(0);
    const down = logs.filter((l) => /^delivery: webhook to ilve is down/.test(l.msg)).length;
    const back = logs.filter((l) => /^delivery: webhook to ilve is back/.test(l.msg)).length;
    console.log(`[measure] trickling webhook receiver: ${down} "down" and ${back} "back" lines; ${receiver.state.answered} answered at once after recovery`);
    expect([down, back]).toEqual([1, 1]);
  }, 90_000);
});
