import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver } from '../../support/webhook-receiver';
import { brandsWith, jpegWithGps, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

const MINUTE = 60_000;
/** Longer than the longest pause between two attempts (30 min, up to 1.5 × with jitter): every waiting delivery is due after each step. */
const STEP = 46 * MINUTE;

let server: TestServer | undefined;
let sink: SmtpSink | undefined;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await server?.dispose();
  await sink?.close();
  server = sink = undefined;
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface LogLine {
  level: number;
  msg: string;
}

/**
 * The delivery workers run on a clock the test moves on by hours (AppOptions.clock); the database, the
 * SMTP server and the retry schedule are the real ones, with the production defaults (30 s base, 72 h).
 */
async function serverOnClock(smtpPort: number, logs: LogLine[], env: Record<string, string> = {}) {
  let offset = 0;
  const s = await startTestServer(
    { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'service@portal.example.com', METRICS_TOKEN: 'scrape-token', ...env },
    {},
    {
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } },
      clock: () => Date.now() + offset,
    },
  );
  return { server: s, advance: (ms: number) => void (offset += ms), elapsed: () => offset };
}

async function submitRequests(url: string, n: number): Promise<string[]> {
  const references: string[] = [];
  for (let i = 0; i < n; i++) {
    const images = await Promise.all([uploadedName(url, await jpegWithGps()), uploadedName(url, await png(), 'b.png', 'image/png')]);
    const res = await submit(url, 'ilve', simpleRequest(...images));
    expect(res.status).toBe(201);
    references.push(((await res.json()) as { reference: string }).reference);
  }
  return references;
}

/** The pending deliveries' fewest attempts, and how many failed for good. */
async function outbox(s: TestServer): Promise<{ fewestAttempts: number; failed: number; sent: number }> {
  const [row] = await s.sql.all<{ fewest: number | null; failed: number; sent: number }>(
    `SELECT MIN(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN attempts END) AS fewest,
            COUNT(failed_at) AS failed, COUNT(sent_at) AS sent FROM outbox`,
  );
  return { fewestAttempts: Number(row.fewest ?? 0), failed: Number(row.failed), sent: Number(row.sent) };
}

async function metrics(s: TestServer): Promise<string> {
  return (await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer scrape-token' } })).text();
}

describe('an SMTP relay down for hours', { timeout: 120_000 }, () => {
  it('keeps retrying past the old budget (8 attempts, about 1.5 h); when the relay is back every mail arrives once', async () => {
    const smtpPort = await freePort();
    const logs: LogLine[] = [];
    const run = await serverOnClock(smtpPort, logs);
    server = run.server;
    const references = await submitRequests(server.url, 3);
    const deliveries = references.length * 2; // the desk's mail and the customer's confirmation

    // Nothing listens on the relay's port (connection refused) for 3 h, then it answers 421 for 3 h more.
    await expect.poll(async () => (await outbox(server!)).fewestAttempts, { timeout: 15_000 }).toBe(1);
    let attempts = 1;
    const stepUntil = async (hours: number) => {
      while (run.elapsed() < hours * 60 * MINUTE) {
        run.advance(STEP);
        attempts++;
        await expect.poll(async () => (await outbox(server!)).fewestAttempts, { timeout: 15_000 }).toBe(attempts);
      }
    };
    await stepUntil(3);
    sink = await startSmtpSink(smtpPort);
    sink.unavailable(true);
    await stepUntil(6);
    expect(await outbox(server)).toEqual({ fewestAttempts: attempts, failed: 0, sent: 0 });
    expect(attempts).toBeGreaterThan(8);
    expect(await metrics(server)).toMatch(/portal_delivery_destination_up\{channel="mail",destination="mail"\} 0/);

    sink.unavailable(false);
    run.advance(STEP);
    await expect.poll(async () => (await outbox(server!)).sent, { timeout: 15_000 }).toBe(deliveries);
    for (const reference of references) {
      const mails = sink.mails.filter((m) => m.headers.get('x-repair-reference') === reference);
      expect(mails.flatMap((m) => sink!.envelopeOf(m).to).sort()).toEqual(['klant@example.com', 'servicedesk@ilve.example.com']);
    }
    expect(sink.mails).toHaveLength(deliveries);
    expect(new Set(sink.mails.map((m) => m.messageId)).size).toBe(deliveries);

    // One line when the relay went down and one when it came back: not one per attempt (here 6 × 11).
    // The worker logs an attempt once its result is recorded, so the line may follow the row by a moment.
    const levels = (said: string) => logs.filter((l) => l.msg.includes(said)).map((l) => l.level);
    await expect.poll(() => levels('is back'), { timeout: 5_000 }).toEqual([30]);
    expect(levels('is down')).toEqual([40]);
    expect(logs.filter((l) => l.level >= 40)).toHaveLength(1);
    expect(await metrics(server)).toMatch(/portal_delivery_destination_up\{channel="mail",destination="mail"\} 1/);
  });

  it('gives up only DELIVERY_GIVE_UP_HOURS (72) after the submit, and then says so', async () => {
    const smtpPort = await freePort();
    const logs: LogLine[] = [];
    const run = await serverOnClock(smtpPort, logs);
    server = run.server;
    const [reference] = await submitRequests(server.url, 1);
    await expect.poll(async () => (await outbox(server!)).fewestAttempts, { timeout: 15_000 }).toBe(1);
    run.advance(72 * 60 * MINUTE - MINUTE);
    await expect.poll(async () => (await outbox(server!)).fewestAttempts, { timeout: 15_000 }).toBe(2);
    expect((await outbox(server)).failed).toBe(0);
    run.advance(STEP);
    await expect.poll(async () => (await outbox(server!)).failed, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => logs.filter((l) => l.level === 50).length, { timeout: 5_000 }).toBe(2);
    const failed = logs.filter((l) => l.level === 50);
    expect(failed.map((l) => l.msg).sort()).toEqual([
      `delivery failed for good: confirmation of request ${reference}`,
      `delivery failed for good: desk of request ${reference}`,
    ]);
  });

  it('fails a mail the relay refuses for good (550 on the recipient) after one attempt, while the others go', async () => {
    sink = await startSmtpSink();
    sink.refuse('servicedesk@ilve.example.com');
    const logs: LogLine[] = [];
    const run = await serverOnClock(Number(new URL(sink.url).port), logs);
    server = run.server;
    const [reference] = await submitRequests(server.url, 1);
    await expect.poll(async () => outbox(server!), { timeout: 15_000 }).toEqual({ fewestAttempts: 0, failed: 1, sent: 1 });
    const [desk] = await server.sql.all<{ attempts: number; last_error: string }>(`SELECT attempts, last_error FROM outbox WHERE kind = 'desk'`);
    expect(desk.attempts).toBe(1);
    expect(desk.last_error).toMatch(/550/);
    expect(sink.mails.map((m) => m.headers.get('x-repair-reference'))).toEqual([reference]);
    // A refusal of one recipient says nothing about the relay: no "down" line.
    expect(logs.filter((l) => l.msg.includes('is down'))).toHaveLength(0);
  });

  it('retries a webhook its receiver answers 503, 429 or 408 for hours, and ends one it answers 400 after one attempt', async () => {
    const tls = selfSignedCert();
    const secret = newWebhookSecret();
    const receiver = await startWebhookReceiver(secret, tls);
    cleanup.push(() => receiver.close(), () => tls.dispose());
    sink = await startSmtpSink();
    const logs: LogLine[] = [];
    const run = await serverOnClock(Number(new URL(sink.url).port), logs, {
      BRANDS_DIR: brandsWith({ ilve: { webhook: { url: receiver.url, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
      ILVE_WEBHOOK_SECRET: secret,
      WEBHOOK_CA_FILE: tls.certFile,
    });
    server = run.server;
    const transient = [503, 429, 408, 500, 502];
    receiver.answer = (_id, seenBefore) => (seenBefore < transient.length ? transient[seenBefore] : 204);
    const [kept] = await submitRequests(server.url, 1);
    const webhook = async (reference: string) =>
      (await server!.sql.all<{ attempts: number; sent_at: number | null; failed_at: number | null }>(
        `SELECT o.attempts, o.sent_at, o.failed_at FROM outbox o JOIN requests r ON r.id = o.request_id WHERE o.kind = 'webhook' AND r.reference = ?`,
        [reference],
      ))[0];
    for (let attempt = 1; attempt <= transient.length; attempt++) {
      await expect.poll(async () => (await webhook(kept)).attempts, { timeout: 15_000 }).toBe(attempt);
      run.advance(STEP);
    }
    await expect.poll(async () => (await webhook(kept)).sent_at !== null, { timeout: 15_000 }).toBe(true);
    expect(receiver.received.filter((w) => w.event.data.reference === kept).map((w) => w.status)).toEqual([...transient, 204]);
    // Logged once the attempt is recorded: the line may follow the row by a moment.
    await expect.poll(() => logs.filter((l) => l.msg.startsWith('delivery: webhook to ilve is back after')).length, { timeout: 5_000 }).toBe(1);
    expect(logs.filter((l) => l.msg === 'delivery: webhook to ilve is down; deliveries stay queued and are retried for 72 h')).toHaveLength(1);

    receiver.answer = () => 400;
    const [refused] = await submitRequests(server.url, 1);
    await expect.poll(async () => (await webhook(refused)).failed_at !== null, { timeout: 15_000 }).toBe(true);
    expect((await webhook(refused)).attempts).toBe(1);
  });
});
