import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { extendedRequest, jpegWithGps, png, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

let server: TestServer;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com' });
});
afterAll(async () => {
  await server.dispose();
  await smtp.close();
});

/** The mail of one request that went to `address` (by its SMTP envelope, not its headers; smtp-server decodes punycode). */
function mailTo(reference: string, address: string) {
  return smtp.waitFor((m) => m.subject?.includes(reference) === true && smtp.envelopeOf(m).to.includes(address));
}

describe('addresses at internationalised domains and with non-ASCII names (RFC 6531)', { timeout: 30_000 }, () => {
  it('are accepted, and each mail reaches the mailbox written: punycode for an ASCII name, SMTPUTF8 for a non-ASCII one', async () => {
    const images = await Promise.all([uploadedName(server.url, await jpegWithGps()), uploadedName(server.url, await png(), 'b.png', 'image/png')]);
    const body = { ...extendedRequest(images[0], images[1], 'nl'), client_email: 'jöran@müller.be', notification: 'info@bäckerei.de' };
    const res = await submit(server.url, 'teka', body, { 'X-Portal-Locale': 'nl' });
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };

    // The customer's name part is not ASCII: only SMTPUTF8 carries it, with the domain as written.
    const confirmation = await mailTo(reference, 'jöran@müller.be');
    expect(smtp.envelopeOf(confirmation).smtpUtf8).toBe(true);
    expect(confirmation.to).toMatchObject({ value: [{ address: 'jöran@müller.be' }] });
    expect(smtp.commands).toContain('RCPT TO:<jöran@müller.be>');
    // An ASCII name at an internationalised domain goes in plain SMTP, the domain in its ASCII (punycode) form.
    const dealer = await mailTo(reference, 'info@bäckerei.de');
    expect(smtp.envelopeOf(dealer).smtpUtf8).toBe(false);
    expect(smtp.commands).toContain('RCPT TO:<info@xn--bckerei-5wa.de>');
    expect(smtp.commands.filter((c) => c.includes('bäckerei'))).toEqual([]);
    // The desk answers the customer at the address written.
    const desk = await mailTo(reference, 'servicedesk@teka.example.com');
    expect(desk.replyTo?.value[0].address).toBe('jöran@müller.be');
  });
});
