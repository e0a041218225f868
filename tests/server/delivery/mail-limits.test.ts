/**
 * A form can aim mail at any address, so the portal limits the mails it
 * sends to one mailbox: counted per real mailbox (case, +tags and the
 * domain's IDNA form are one inbox; customer and dealer mails count
 * together), checked and recorded in one step even when requests arrive at
 * once, and capped per brand per hour. Sent as an attacker sends them:
 * many requests at the same moment, every spelling of one address.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailboxOf } from '../../../src/core/mailbox';
import { startSmtpSink } from '../../support/smtp-sink';
import { captureLogs } from '../log-capture';
import { extendedRequest, png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** Mails queued to each mailbox of `kinds`, as the outbox holds them. */
async function queuedTo(s: TestServer, kinds: string[]): Promise<Record<string, number>> {
  const rows = await s.sql.all<{ recipient: string }>(`SELECT recipient FROM outbox WHERE kind IN (${kinds.map(() => '?').join(', ')})`, kinds);
  const byMailbox: Record<string, number> = {};
  for (const { recipient } of rows) {
    byMailbox[mailboxOf(recipient)] = (byMailbox[mailboxOf(recipient)] ?? 0) + 1;
  }
  return byMailbox;
}

async function photos(s: TestServer): Promise<[string, string]> {
  const photo = await png();
  return [await uploadedName(s.url, photo, 'a.png', 'image/png'), await uploadedName(s.url, photo, 'b.png', 'image/png')];
}

describe('mails to one mailbox', { timeout: 60_000 }, () => {
  it('are counted per real mailbox across spellings and the dealer field, and never pass the limit when sent all at once', async () => {
    server = await startTestServer({ MAILS_PER_RECIPIENT_PER_DAY: '5' });
    const s = server;
    const spellings = ['anna@müller.be', 'Anna+1@MÜLLER.be', 'anna+2@xn--mller-kva.be', 'ANNA+x@Müller.BE'];
    const bodies = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const [image1, image2] = await photos(s);
        const address = spellings[i % spellings.length];
        // Half as the customer (simple form), half as the dealer of someone else's request (extended form).
        return i % 2 === 0
          ? { brand: 'ilve', body: { ...simpleRequest(image1, image2), client_email: address } }
          : { brand: 'teka', body: { ...extendedRequest(image1, image2, 'nl'), client_email: `klant${i}@example.com`, notification: address } };
      }),
    );
    const answers = await Promise.all(bodies.map(({ brand, body }) => submit(s.url, brand, body, { 'idempotency-key': crypto.randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(201));
    const queued = await queuedTo(s, ['confirmation', 'dealer']);
    expect(queued['anna@xn--mller-kva.be']).toBe(5);
    // Every request reached the desk all the same.
    const [{ n }] = await s.sql.all<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE kind = 'desk'");
    expect(Number(n)).toBe(16);
  });
});

describe('mails to one Gmail inbox', { timeout: 60_000 }, () => {
  it('are counted as one mailbox across dotted spellings and googlemail.com: the inbox gets no more than the limit', async () => {
    const smtp = await startSmtpSink();
    try {
      server = await startTestServer({ MAILS_PER_RECIPIENT_PER_DAY: '5', SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com' });
      const s = server;
      const spellings = ['annajansen@gmail.com', 'anna.jansen@gmail.com', 'a.n.n.a.jansen@gmail.com', 'AnnaJansen@googlemail.com', 'anna.jansen+rma@googlemail.com', 'a.nnajansen@GMAIL.com'];
      for (let i = 0; i < 11; i++) {
        const [image1, image2] = await photos(s);
        const res = await submit(s.url, 'ilve', { ...simpleRequest(image1, image2), client_email: spellings[i % spellings.length] }, { 'idempotency-key': crypto.randomUUID() });
        expect(res.status).toBe(201);
      }
      // Every mail queued has gone out (11 desk mails and the confirmations let through), then the inbox is counted.
      await until(async () => (await s.sql.all<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL'))[0].n == 0 && smtp.mails.length >= 11, 'every queued mail sent');
      const inbox = new Set(spellings.map((a) => a.toLowerCase()));
      const toInbox = smtp.mails.filter((m) => smtp.envelopeOf(m).to.some((to) => inbox.has(to.toLowerCase())));
      expect(toInbox).toHaveLength(5);
      expect(smtp.mails.length - toInbox.length).toBe(11);
    } finally {
      // The server first: the sink's close waits for the server's pooled SMTP connections to end.
      await server?.dispose();
      server = undefined;
      await smtp.close();
    }
  });
});

describe("a brand's mails per hour", { timeout: 90_000 }, () => {
  const HOUR = 60 * 60_000;
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hold customers' confirmations for the next hour, never drop them, while one client's flood of dealer notices takes only its share", async () => {
    // The clock stands ten minutes before an hour turns (only Date: the server's timers and sockets run as
    // ever), ahead of the real one: SQLite's writer thread stamps rows with the real clock.
    const turn = (Math.floor(Date.now() / HOUR) + 2) * HOUR;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(turn - 10 * 60_000);
    const smtp = await startSmtpSink();
    const logs = captureLogs();
    try {
      server = await startTestServer(
        {
          SMTP_URL: smtp.url,
          MAIL_FROM: 'service@portal.example.com',
          TRUST_PROXY: '127.0.0.1',
          MAILS_PER_BRAND_PER_HOUR: '4',
          DEALER_MAILS_PER_BRAND_PER_HOUR: '2',
          MAILS_PER_CLIENT_PER_HOUR: '3',
          METRICS_TOKEN: 'metrics-token-for-the-test',
        },
        {},
        { logger: logs.logger },
      );
      const s = server;
      const from = (client: string) => ({ 'idempotency-key': crypto.randomUUID(), 'x-forwarded-for': client });
      const statuses: number[] = [];
      // One client sends six requests, each with a new dealer address and a new customer address.
      for (let i = 0; i < 6; i++) {
        const [image1, image2] = await photos(s);
        const body = { ...extendedRequest(image1, image2, 'nl'), client_email: `flood${i}@example.com`, notification: `dealer${i}@example.com` };
        statuses.push((await submit(s.url, 'teka', body, from('203.0.113.7'))).status);
      }
      // Then five customers, each from an address of their own.
      for (let i = 0; i < 5; i++) {
        const [image1, image2] = await photos(s);
        const body: Record<string, unknown> = { ...extendedRequest(image1, image2, 'nl'), client_email: `klant${i}@example.com` };
        delete body.notification;
        statuses.push((await submit(s.url, 'teka', body, from(`198.51.100.${i + 1}`))).status);
      }
      expect(statuses).toEqual(Array(11).fill(201));
      const rows = await s.sql.all<{ kind: string; recipient: string; next_attempt_at: number }>(
        "SELECT kind, recipient, next_attempt_at FROM outbox WHERE kind IN ('confirmation', 'dealer') ORDER BY id",
      );
      const due = (to: string) => rows.filter((r) => r.recipient === to).map((r) => Number(r.next_attempt_at));
      // Every customer's confirmation is queued: within the hour's four now (due before the turn of the
      // hour; a PostgreSQL lease may have moved the time of one under way), the rest at a later hour.
      for (let i = 0; i < 5; i++) expect(due(`klant${i}@example.com`)).toHaveLength(1);
      for (let i = 0; i < 6; i++) expect(due(`flood${i}@example.com`)).toHaveLength(1);
      const confirmations = rows.filter((r) => r.kind === 'confirmation').map((r) => Number(r.next_attempt_at));
      expect(confirmations.filter((t) => t < turn)).toHaveLength(4);
      expect(confirmations.filter((t) => t === turn)).toHaveLength(4);
      expect(confirmations.filter((t) => t === turn + HOUR)).toHaveLength(3);
      // The flood's client took no more than its share of this hour (3: two confirmations and a notice),
      // so the first two customers still had room; the next hour's room goes first come, first served.
      expect([0, 1, 2, 3, 4].map((i) => due(`klant${i}@example.com`)[0])).toEqual([expect.any(Number), expect.any(Number), turn, turn + HOUR, turn + HOUR]);
      expect(Math.max(...due('klant0@example.com'), ...due('klant1@example.com'))).toBeLessThan(turn);
      // Dealer notices: one fits the flood's share; the rest are not sent.
      expect(rows.filter((r) => r.kind === 'dealer')).toHaveLength(1);
      const metrics = await (await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-test' } })).text();
      expect(metrics).toContain('portal_mails_held_total{brand="teka"} 7');
      expect(metrics).toContain('portal_mails_withheld_total{brand="teka"} 5');
      expect(logs.lines.filter((l) => l.msg?.startsWith('mail cap reached'))).toHaveLength(1);

      // What is due now goes out; the held confirmations wait for their hour, then go.
      const sentTo = () => new Set(smtp.mails.flatMap((m) => smtp.envelopeOf(m).to));
      await until(() => smtp.mails.length >= 11 + 4 + 1, 'the desk mails and the mails due now');
      expect(sentTo().has('klant4@example.com')).toBe(false);
      // Five minutes on, only held confirmations are pending: none is late, and an alert on the oldest's age stays quiet.
      const oldestAge = async () =>
        /^portal_outbox_oldest_pending_age_seconds (\S+)$/m.exec(
          await (await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-test' } })).text(),
        )?.[1];
      vi.setSystemTime(turn - 5 * 60_000);
      await expect.poll(oldestAge, { timeout: 10_000 }).toBe('0');
      vi.setSystemTime(turn + 1000);
      await until(() => smtp.mails.length >= 11 + 4 + 1 + 4, 'the mails of the next hour');
      expect(['klant2@example.com', 'klant3@example.com', 'klant4@example.com'].map((a) => sentTo().has(a))).toEqual([true, false, false]);
      vi.setSystemTime(turn + HOUR + 1000);
      await until(() => smtp.mails.length >= 11 + 4 + 1 + 4 + 3, 'the mails of the hour after');
      for (let i = 0; i < 5; i++) expect(sentTo().has(`klant${i}@example.com`)).toBe(true);
      expect(smtp.mails).toHaveLength(11 + 11 + 1);
    } finally {
      await server?.dispose();
      server = undefined;
      await smtp.close();
    }
  });
});
