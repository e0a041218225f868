import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { backendEnv } from '../../support/backend';
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

describe('mail delivery across kill -9 of the server in mid-delivery', () => {
  it('delivers every acknowledged request to the desk and the customer; a mail sent twice has the same Message-ID', async () => {
    const sink = await startSmtpSink();
    const backend = await backendEnv();
    const root = mkdtempSync(join(tmpdir(), 'mail-crash-'));
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
    };

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
