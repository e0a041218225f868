import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { jpegWithGps, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../../server/helpers';

let server: TestServer;
let sink: SmtpSink;
let references: string[];
const DESK = 'servicedesk@ilve.example.com';
const CUSTOMER = 'klant@example.com';

beforeAll(async () => {
  // The relay refuses both recipients (550): every mail fails for good after one attempt.
  sink = await startSmtpSink();
  sink.refuse(DESK);
  sink.refuse(CUSTOMER);
  server = await startTestServer({ SMTP_URL: sink.url, MAIL_FROM: 'service@portal.example.com' });
  references = [];
  for (let i = 0; i < 2; i++) {
    const images = await Promise.all([uploadedName(server.url, await jpegWithGps()), uploadedName(server.url, await png(), 'b.png', 'image/png')]);
    const res = await submit(server.url, 'ilve', simpleRequest(...images));
    references.push(((await res.json()) as { reference: string }).reference);
  }
});
afterAll(async () => {
  await server.dispose();
  await sink.close();
});

function requests(...args: string[]): { out: string; status: number } {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), ...args], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.config.databaseUrl },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { out, status: 0 };
  } catch (error) {
    const { stdout, stderr, status } = error as { stdout: string; stderr: string; status: number };
    return { out: stdout + stderr, status };
  }
}

describe('npm run requests -- deliveries / redeliver', { timeout: 60_000 }, () => {
  it('lists failed deliveries per destination, and requeues them all (--failed) when the mail server takes them', async () => {
    await expect
      .poll(() => requests('deliveries').out, { timeout: 15_000, interval: 300 })
      .toMatch(/0 pending, 4 failed/);
    const { out } = requests('deliveries');
    expect(out).toContain(`ilve: service-desk mail → ${DESK}`);
    expect(out).toContain(`ilve: customer's confirmation → ${CUSTOMER}`);
    expect(out).toMatch(new RegExp(`${references[0]} {2}FAILED for good .*, 1 attempt, last error: .*550`));
    expect(sink.mails).toHaveLength(0);

    sink.accept(DESK);
    sink.accept(CUSTOMER);
    expect(requests('redeliver', '--failed', '--since', '2099-01-01')).toEqual({ out: expect.stringContaining('Queued 0 deliveries that failed for good since 2099-01-01'), status: 0 });
    expect(requests('redeliver', '--failed', '--since', '1h')).toEqual({ out: expect.stringContaining('Queued 4 deliveries that failed for good since'), status: 0 });
    await expect.poll(() => requests('deliveries').out, { timeout: 15_000, interval: 300 }).toContain('No pending or failed deliveries.');
    for (const reference of references) {
      const mails = sink.mails.filter((m) => m.subject!.includes(reference));
      expect(mails.flatMap((m) => sink.envelopeOf(m).to).sort()).toEqual([CUSTOMER, DESK]);
    }
    expect(requests('redeliver', '--failed')).toEqual({ out: expect.stringContaining('Queued 0 deliveries that failed for good again'), status: 0 });
  });

  it('replays one request: its desk mail again, with the same Message-ID', async () => {
    const [reference] = references;
    const before = sink.mails.filter((m) => m.subject!.includes(reference) && m.attachments.length === 2);
    expect(before).toHaveLength(1);
    const replay = requests('redeliver', reference);
    expect(replay).toEqual({ out: expect.stringContaining(`Queued 1 delivery of ${reference} again`), status: 0 });
    await expect.poll(() => sink.mails.filter((m) => m.subject!.includes(reference) && m.attachments.length === 2).length, { timeout: 15_000 }).toBe(2);
    const desk = sink.mails.filter((m) => m.subject!.includes(reference) && m.attachments.length === 2);
    expect(desk[1].replyTo?.value[0].address).toBe(CUSTOMER);
    expect(desk[1].messageId).toBe(desk[0].messageId);
  });

  it('says so for an unknown reference, and for --since without --failed or a --since it cannot read', () => {
    expect(requests('redeliver', 'no-such-reference')).toEqual({ out: expect.stringContaining('No request with reference no-such-reference'), status: 1 });
    expect(requests('redeliver', '--since', '1h', 'abc')).toEqual({ out: expect.stringContaining('--since goes with --failed'), status: 2 });
    expect(requests('redeliver', '--failed', '--since', 'yesterday')).toEqual({ out: expect.stringContaining('--since must be an ISO date'), status: 2 });
    expect(requests('redeliver')).toEqual({ out: expect.stringContaining('redeliver takes a reference or --failed'), status: 2 });
  });
});
