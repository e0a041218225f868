/**
 * Delivery figures of `npm run bench` (also runnable alone: `tsx bench/delivery-bench.ts`).
 * The real server (its own process) takes submits at a steady ~100 requests/s
 * for 20 s while, in this process, an SMTP server (smtp-server) accepts its
 * mails and an HTTPS receiver checks its webhooks with `standardwebhooks`.
 * Per request: time from the 201 to the service-desk mail accepted by the
 * SMTP server, and to the webhook received. Photos are registered straight
 * in the database with a real 150 kB JPEG file each (the bench-only
 * shortcut), so every desk mail carries two attachments.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:https';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { simpleRequest } from '../tests/fixtures/requests';
import { brandsWith } from '../tests/support/brands-with';
import { selfSignedCert } from '../tests/support/tls-cert';
import { newWebhookSecret } from '../tests/support/webhook-receiver';
import type { BenchFigure } from './figures';
import { startServer } from './server-process';
import { seedPhotos } from './submit-bench';

const RATE = 100;
const SECONDS = 20;
const SUBMITS = RATE * SECONDS;
const SETTLE_MS = 60_000;

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** Two receivers that note when each request's desk mail and webhook arrived. */
async function startReceivers(secret: string, tls: { key: Buffer; cert: Buffer }) {
  const mailAt = new Map<string, number>();
  const hookAt = new Map<string, number>();
  let badSignatures = 0;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    // Raw bytes, not parsed: parsing 4,000 mails would load the 2 cores the server needs.
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const at = performance.now();
        const raw = Buffer.concat(chunks).toString('latin1');
        const reference = /^X-Repair-Reference: (\S+)/m.exec(raw)?.[1];
        // The desk's mail: the one with the photos (the confirmation has none).
        if (reference && raw.includes('Content-Disposition: attachment') && !mailAt.has(reference)) mailAt.set(reference, at);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const verifier = new Webhook(secret);
  const https = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const event = verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as { data: { reference: string } };
        if (!hookAt.has(event.data.reference)) hookAt.set(event.data.reference, at);
        res.writeHead(204).end();
      } catch {
        badSignatures++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  return {
    mailAt,
    hookAt,
    badSignatures: () => badSignatures,
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    hookUrl: `https://127.0.0.1:${(https.address() as { port: number }).port}/hooks`,
    async close() {
      https.closeAllConnections();
      await Promise.all([new Promise<void>((r) => smtp.close(() => r())), new Promise((r) => https.close(r))]);
    },
  };
}

/** Submits at a steady rate (one every 1000/RATE ms, not waiting for answers); returns when each 201 came. */
async function steadyLoad(url: string, photos: string[]) {
  const createdAt = new Map<string, number>();
  const submitMs: number[] = [];
  let failed = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < SUBMITS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    const body = { ...simpleRequest(photos[2 * i], photos[2 * i + 1]), client_email: `klant-${i}@example.com` };
    pending.push(
      fetch(`${url}/api/forms/ilve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      }).then(
        async (res) => {
          const at = performance.now();
          if (res.status !== 201) return void failed++;
          createdAt.set(((await res.json()) as { reference: string }).reference, at);
          submitMs.push(at - sent);
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  return { createdAt, submitMs: submitMs.sort((a, b) => a - b), failed, rate: SUBMITS / seconds };
}

function latencies(createdAt: Map<string, number>, arrivedAt: Map<string, number>) {
  const ms = [...createdAt].flatMap(([reference, at]) => (arrivedAt.has(reference) ? [arrivedAt.get(reference)! - at] : []));
  ms.sort((a, b) => a - b);
  return { p50: Math.round(percentile(ms, 50)), p99: Math.round(percentile(ms, 99)), max: Math.round(ms.at(-1) ?? NaN), missing: createdAt.size - ms.length };
}

export async function runDeliveryBench(): Promise<BenchFigure[]> {
  const tls = selfSignedCert();
  const secret = newWebhookSecret();
  const receivers = await startReceivers(secret, tls);
  const server = await startServer({
    SMTP_URL: receivers.smtpUrl,
    MAIL_FROM: 'service@portal.example.com',
    BRANDS_DIR: brandsWith({ ilve: { webhook: { url: receivers.hookUrl, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
    ILVE_WEBHOOK_SECRET: secret,
    WEBHOOK_CA_FILE: tls.certFile,
    // Required with a webhook; the bench's receiver does not follow the photo links.
    PUBLIC_URL: 'https://portal.bench.example',
  });
  try {
    const photo = await sharp(randomBytes(400 * 300 * 3), { raw: { width: 400, height: 300, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    const photos = await seedPhotos(server.dataDir, 2 * SUBMITS, photo);
    const load = await steadyLoad(server.url, photos);
    const deadline = performance.now() + SETTLE_MS;
    const done = () => [...load.createdAt.keys()].every((r) => receivers.mailAt.has(r) && receivers.hookAt.has(r));
    while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const mail = latencies(load.createdAt, receivers.mailAt);
    const hook = latencies(load.createdAt, receivers.hookAt);
    const context = `${load.createdAt.size} requests at ${load.rate.toFixed(0)}/s for ${SECONDS} s (${load.failed} failed); submit p50 ${Math.round(percentile(load.submitMs, 50))} ms, p99 ${Math.round(percentile(load.submitMs, 99))} ms; photos ${Math.round(photo.length / 1000)} kB each`;
    return [
      {
        name: `201 → service-desk mail accepted by SMTP, p99 (~${RATE} requests/s)`,
        value: mail.p99,
        unit: 'ms',
        budgetKey: 'server.deskMailP99Ms',
        better: 'lower',
        detail: `p50 ${mail.p50} ms, max ${mail.max} ms, ${mail.missing} not arrived within ${SETTLE_MS / 1000} s; each with 2 attachments, plus one confirmation mail per request; ${context}`,
      },
      {
        name: `201 → webhook received, p99 (~${RATE} requests/s)`,
        value: hook.p99,
        unit: 'ms',
        budgetKey: 'server.webhookP99Ms',
        better: 'lower',
        detail: `p50 ${hook.p50} ms, max ${hook.max} ms, ${hook.missing} not arrived, ${receivers.badSignatures()} bad signatures; HTTPS, signature checked with standardwebhooks`,
      },
    ];
  } finally {
    await server.stop();
    await receivers.close();
    tls.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await runDeliveryBench()) {
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.detail ? `\n    ${figure.detail}` : ''}`);
  }
}
