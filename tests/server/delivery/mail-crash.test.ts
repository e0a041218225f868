import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND, backendEnv } from '../../support/backend';
import { freePort } from '../../support/free-port';
import { spawnServer, type ServerProcess } from '../../support/server-process';
import { startSmtpSink } from '../../support/smtp-sink';
import { jpegWithGps, png, simpleRequest, submit, uploadedName } from '../helpers';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Requests per run of the server, and runs ended by kill -9 (the last run ends normally). */
const PER_RUN = Number(process.env.CRASH_REQUESTS_PER_RUN ?? 12);
const KILLS = Number(process.env.CRASH_KILLS ?? 2);

async function submitSome(url: string, count: number): Promise<string[]> {
  const [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
  const references: string[] = [];
  for (let i = 0; i < count; i += 4) {
    // Photos one at a time (one client's decoding share), then up to four submits at once, as a busy hour's customers.
    const batch: [string, string][] = [];
    for (let j = i; j < Math.min(i + 4, count); j++) batch.push([await uploadedName(url, jpeg), await uploadedName(url, pngBytes, 'b.png', 'image/png')]);
    const sent = await Promise.all(batch.map((images) => submit(url, 'ilve', simpleRequest(...images), { 'Idempotency-Key': crypto.randomUUID() })));
    for (const res of sent) {
      expect(res.status).toBe(201);
      references.push(((await res.json()) as { reference: string }).reference);
    }
  }
  return references;
}

/** A relay, a store and the server's settings for a run of kills: SMTP to the relay, retries and leases short, limits out of the way. */
async function crashSetup(name: string, sinkOptions?: Parameters<typeof startSmtpSink>[1], extra: Record<string, string> = {}) {
  const sink = await startSmtpSink(0, sinkOptions);
  const backend = await backendEnv();
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  cleanup.push(() => sink.close(), () => backend.drop(), () => rmSync(root, { recursive: true, force: true }));
  const port = await freePort();
  const env = {
    ...backend.env,
    DATA_DIR: join(root, 'data'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: sink.url,
    MAIL_FROM: 'service@portal.example.com',
    MAIL_RETRY_BASE_MS: '200',
    MAILS_PER_RECIPIENT_PER_DAY: '100000',
    // Every request comes from this one address: its hourly share of the mails would hold confirmations back.
    MAILS_PER_CLIENT_PER_HOUR: '100000',
    RATE_LIMIT_UPLOADS: '100000',
    RATE_LIMIT_SUBMITS: '100000',
    // PostgreSQL: rows the killed server had leased go to the next one after this.
    WEBHOOK_TIMEOUT_MS: '1000',
    DELIVERY_LEASE_MS: '2000',
    ...extra,
  };
  return { sink, port, env };
}

describe('mail delivery across kill -9 of the server in mid-delivery', () => {
  it('delivers every acknowledged request to the desk and the customer; a mail sent twice has the same Message-ID', async () => {
    const { sink, port, env } = await crashSetup('mail-crash');

    const acknowledged: string[] = [];
    let killedWhileSending = 0;
    for (let run = 0; run <= KILLS; run++) {
      const server: ServerProcess = await spawnServer(port, env);
      cleanup.push(() => server.stop());
      const before = sink.mails.length;
      const references = await submitSome(server.url, PER_RUN);
      acknowledged.push(...references);
      if (run === KILLS) break;
      // Killed once about half of this run's mails went out: the rest are on the wire or queued.
      await expect.poll(() => sink.mails.length - before, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(PER_RUN);
      await server.kill9();
      killedWhileSending++;
    }

    const reference = (m: ParsedMail) => String(m.headers.get('x-repair-reference'));
    const expected = acknowledged.length * 2;
    await expect.poll(() => new Set(sink.mails.map((m) => m.messageId)).size, { timeout: 60_000, interval: 200 }).toBe(expected);
    // Every acknowledged request reached the desk and its customer, each mail under its own stable Message-ID.
    for (const ref of acknowledged) {
      const ids = new Set(sink.mails.filter((m) => reference(m) === ref).map((m) => m.messageId));
      expect([...ids].sort()).toEqual([`<${ref}.confirmation@portal.example.com>`, `<${ref}.desk@portal.example.com>`]);
    }
    const duplicates = sink.mails.length - expected;
    console.log(
      `mail crash (${process.env.TEST_BACKEND ?? 'sqlite'}): ${acknowledged.length} requests acknowledged, ${killedWhileSending} kill -9, ` +
        `${expected} mails expected, ${sink.mails.length} received, ${new Set(sink.mails.map((m) => m.messageId)).size} distinct Message-IDs, ${duplicates} duplicates`,
    );
  }, 180_000);
});

/**
 * kill -9 of the server while it delivers to a relay that takes 200 ms over each message (real ones
 * take 100–500 ms), three times. A delivery counts as sent once recorded, so a crash resends what it
 * had not recorded: that must be no more than what was in flight at the kill (the relay had it, the
 * answer or its recording had not come), never what a whole batch of results held. And nothing is lost.
 */
const REQUESTS = Number(process.env.CRASH_REQUESTS ?? 50);
const RESEND_KILLS = 3;
/**
 * What a kill may send again, at most, at the default settings (SMTP_MAX_CONNECTIONS 10): the deliveries the
 * relay had whose answer or its recording had not come. 25 of 762 mails came twice for three kills when 20
 * were kept in flight whatever the relay's pace.
 */
const IN_FLIGHT = 4;
/** Mails the relay takes between two kills. */
const BETWEEN_KILLS = 20;

describe(`mail delivery across kill -9 with a relay that takes 200 ms a message (${BACKEND})`, () => {
  it('sends again at most the deliveries in flight at each kill, and loses none', async () => {
    const { sink, port, env } = await crashSetup('crash-resends', { replyAfterMs: 200 });

    // The requests are stored first by a server that sends nothing yet (its first look for due mail is a
    // minute away), so that the kills below all come during delivery.
    let server: ServerProcess = await spawnServer(port, { ...env, MAIL_POLL_INTERVAL_MS: '60000' });
    cleanup.push(() => server.stop());
    const photo = await png();
    const acknowledged: string[] = [];
    const send = async () => {
      const images: [string, string] = [await uploadedName(server.url, photo), await uploadedName(server.url, photo)];
      const res = await submit(server.url, 'ilve', simpleRequest(...images), { 'Idempotency-Key': crypto.randomUUID() });
      expect(res.status).toBe(201);
      acknowledged.push(((await res.json()) as { reference: string }).reference);
    };
    for (let i = 0; i < REQUESTS; i++) await send();
    expect(sink.mails).toEqual([]);
    await server.stop();
    server = await spawnServer(port, env);

    // Customers go on submitting meanwhile, as in a busy hour: the server stores requests while it records deliveries.
    let killing = true;
    const customers = (async () => {
      while (killing) await send().catch(() => new Promise((r) => setTimeout(r, 100)));
    })();
    const kills: number[] = [];
    for (let kill = 0; kill < RESEND_KILLS; kill++) {
      const before = sink.mails.length;
      await expect.poll(() => sink.mails.length - before, { timeout: 60_000, interval: 5 }).toBeGreaterThanOrEqual(BETWEEN_KILLS);
      await server.kill9();
      kills.push(new Set(sink.mails.map((m) => m.messageId)).size);
      server = await spawnServer(port, env);
    }
    killing = false;
    await customers;
    // A submit cut off by a kill may have been stored with its answer lost: the customer retries it (a new
    // request), and the one stored is delivered too. The customers send one at a time: one such per kill at most.
    const delivered = () => new Set(sink.mails.map((m) => m.messageId));
    const mailsOf = (ref: string) => [`<${ref}.confirmation@portal.example.com>`, `<${ref}.desk@portal.example.com>`];
    await expect.poll(() => acknowledged.flatMap(mailsOf).every((id) => delivered().has(id)), { timeout: 120_000, interval: 200 }).toBe(true);
    // Whatever was resent has arrived by now; nothing more comes.
    await new Promise((r) => setTimeout(r, 1000));

    const references = new Set(sink.mails.map((m) => String(m.headers.get('x-repair-reference'))));
    const unanswered = [...references].filter((ref) => !acknowledged.includes(ref));
    const expected = 2 * references.size;
    const duplicates = sink.mails.length - expected;
    console.log(
      `[measure] crash resends (${BACKEND}): ${acknowledged.length} requests acknowledged, ${unanswered.length} stored with the answer cut off, ${expected} mails, ` +
        `${RESEND_KILLS} kill -9 at ${kills.join(', ')} mails sent, ${sink.mails.length} received, ${duplicates} duplicates (at most ${IN_FLIGHT} a kill: ${RESEND_KILLS * IN_FLIGHT})`,
    );
    expect(unanswered.length).toBeLessThanOrEqual(RESEND_KILLS);
    // Every request stored, answered or not, reached the desk and its customer, each mail once under its own Message-ID.
    expect(delivered()).toEqual(new Set([...references].flatMap(mailsOf)));
    expect(duplicates).toBeLessThanOrEqual(RESEND_KILLS * IN_FLIGHT);
  }, 300_000);
});
