/**
 * A form can aim mail at any address, so the portal limits the mails it
 * sends to one mailbox: counted per real mailbox (case, +tags and the
 * domain's IDNA form are one inbox; customer and dealer mails count
 * together), checked and recorded in one step even when requests arrive at
 * once, and capped per brand per hour. Sent as an attacker sends them:
 * many requests at the same moment, every spelling of one address.
 */
import { afterEach, describe, expect, it } from 'vitest';
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

describe("a brand's mails per hour", { timeout: 60_000 }, () => {
  it('stop at the cap, all mailboxes together: requests are still stored and reach the desk, the metric counts what was held back, the log says so once', async () => {
    const logs = captureLogs();
    server = await startTestServer({ MAILS_PER_BRAND_PER_HOUR: '4', METRICS_TOKEN: 'metrics-token-for-the-test' }, {}, { logger: logs.logger });
    const s = server;
    // Six customers, each their own mailbox, one after the other: four mails fit in the hour.
    for (let i = 0; i < 6; i++) {
      const [image1, image2] = await photos(s);
      const res = await submit(s.url, 'ilve', { ...simpleRequest(image1, image2), client_email: `klant${i}@example.com` }, { 'idempotency-key': crypto.randomUUID() });
      expect(res.status).toBe(201);
    }
    const count = async (kind: string) => Number((await s.sql.all<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE kind = ?', [kind]))[0].n);
    expect([await count('confirmation'), await count('desk')]).toEqual([4, 6]);
    const metrics = await (await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-test' } })).text();
    expect(metrics).toContain('portal_mails_withheld_total{brand="ilve"} 2');
    expect(logs.lines.filter((l) => l.msg?.startsWith('mail cap reached'))).toHaveLength(1);
  });
});
