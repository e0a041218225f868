import { createServer, type Server } from 'node:https';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  /** The payload, verified by standardwebhooks (throws before it is recorded otherwise). */
  event: { type: string; timestamp: string; data: Record<string, unknown> & { reference: string } };
  status: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  /** Every delivery seen, with the status answered. */
  received: ReceivedWebhook[];
  /** Deliveries whose signature did not verify. */
  rejected: string[];
  /** Decides the answer to the next delivery; 204 by default. */
  answer: (id: string, seenBefore: number) => number;
  waitFor(match: (w: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** A secret as a receiver issues it: whsec_ and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')}`;
}

/**
 * A ticketing system's webhook endpoint over HTTPS, checking each signature
 * with the `standardwebhooks` package (not with the portal's code).
 */
export async function startWebhookReceiver(secret: string, tls: { key: Buffer; cert: Buffer }, port = 0): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const receiver: Omit<WebhookReceiver, 'url' | 'port' | 'close'> = {
    received: [],
    rejected: [],
    answer: () => 204,
    async waitFor(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = receiver.received.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching webhook among ${receiver.received.length} received`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      let event: ReceivedWebhook['event'];
      try {
        event = verifier.verify(body, req.headers as Record<string, string>) as ReceivedWebhook['event'];
      } catch {
        receiver.rejected.push(id);
        res.writeHead(400).end();
        return;
      }
      const status = receiver.answer(id, receiver.received.filter((w) => w.id === id).length);
      receiver.received.push({ id, event, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as { port: number }).port;
  return Object.assign(receiver, {
    url: `https://127.0.0.1:${actual}/hooks/repairs`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as WebhookReceiver;
}
