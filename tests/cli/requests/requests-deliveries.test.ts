import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { jpegWithGps, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../../server/helpers';

let server: TestServer;
let smtpPort: number;
let sink: SmtpSink | undefined;
let reference: string;

beforeAll(async () => {
  smtpPort = await freePort();
  // Nothing listens on the SMTP port yet: every mail fails for good after one attempt.
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'service@portal.example.com',
    MAIL_MAX_ATTEMPTS: '1',
  });
  const images = await Promise.all([uploadedName(server.url, await jpegWithGps()), uploadedName(server.url, await png(), 'b.png', 'image/png')]);
  const res = await submit(server.url, 'ilve', simpleRequest(...images));
  reference = ((await res.json()) as { reference: string }).reference;
});
afterAll(async () => {
  await server.dispose();
  await sink?.close();
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
  it('lists failed deliveries per destination, and replays one when the mail server is back', async () => {
    await expect
      .poll(() => requests('deliveries').out, { timeout: 15_000, interval: 300 })
      .toMatch(/0 pending, 2 failed/);
    const { out } = requests('deliveries');
    expect(out).toContain('ilve: service-desk mail → servicedesk@ilve.example.com');
    expect(out).toContain("ilve: customer's confirmation → klant@example.com");
    expect(out).toMatch(new RegExp(`${reference} {2}FAILED for good .*, 1 attempt, last error: .*ECONNREFUSED`));

    sink = await startSmtpSink(smtpPort);
    const replay = requests('redeliver', reference);
    expect(replay).toEqual({ out: expect.stringContaining(`Queued 2 deliveries of ${reference} again`), status: 0 });
    const desk = await sink.waitFor((m) => m.subject!.includes(reference) && m.attachments.length === 2);
    expect(desk.replyTo?.value[0].address).toBe('klant@example.com');
    await expect.poll(() => requests('deliveries').out, { timeout: 15_000, interval: 300 }).toContain('No pending or failed deliveries.');
    expect(sink.mails.filter((m) => m.subject!.includes(reference))).toHaveLength(2);
  });

  it('says so for an unknown reference', () => {
    expect(requests('redeliver', 'no-such-reference')).toEqual({ out: expect.stringContaining('No request with reference no-such-reference'), status: 1 });
  });
});
