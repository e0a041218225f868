/**
 * What a failed delivery keeps of its error (the staff read it in `npm run
 * requests -- deliveries`) is the receiver's answer without the address it
 * quotes: a mail server's refusal names the mailbox, and the delivery record
 * outlives it in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../helpers';

const ADDRESS = 'weigering.adres@example.com';

describe("a refused mail's stored error", () => {
  let smtp: SmtpSink;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example', MAIL_RETRY_BASE_MS: '100' });
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  it('keeps the answer, without the address it quotes', async () => {
    smtp.refuse(ADDRESS);
    const photo = await png();
    const [image1, image2] = [await uploadedName(server.url, photo, 'a.png', 'image/png'), await uploadedName(server.url, photo, 'b.png', 'image/png')];
    expect((await submit(server.url, 'ilve', { ...simpleRequest(image1, image2), client_email: ADDRESS })).status).toBe(201);
    const [row] = await until(
      async () => {
        const rows = await server.sql.all<{ last_error: string }>("SELECT last_error FROM outbox WHERE kind = 'confirmation' AND last_error IS NOT NULL");
        return rows.length > 0 ? rows : undefined;
      },
      'the refusal to be recorded',
    );
    expect(row.last_error).toMatch(/5\d\d/);
    expect(row.last_error.toLowerCase()).not.toContain('weigering');
  });
});
