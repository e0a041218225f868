/**
 * A request whose form is unknown: stored before revisions were kept, by a
 * form whose files were removed before the upgrade. Its desk mail, sent
 * again, still goes out as it was written (the stored text, the photos the
 * request names, Reply-To the desk: no field is known to be the customer's),
 * rather than being retried for days as if the mail server were down.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests, storeEnv } from '../../cli/requests/run-requests';
import { jpegWithGps, keptMails, png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../helpers';

describe('a request of a form no revision knows', { timeout: 120_000 }, () => {
  let server: TestServer;
  let reference: string;
  let stored: Record<string, unknown>;

  const deskMails = async (): Promise<ParsedMail[]> => {
    const mails = await Promise.all((await keptMails(server)).map((m) => simpleParser(m.eml)));
    return mails.filter((m) => m.headers.get('x-repair-reference') === reference && (m.to as { text: string }).text.includes('servicedesk@'));
  };

  beforeAll(async () => {
    server = await startTestServer();
    const [image1, image2] = [await uploadedName(server.url, await jpegWithGps()), await uploadedName(server.url, await png(), 'b.png', 'image/png')];
    stored = simpleRequest(image1, image2);
    const sent = await submit(server.url, 'ilve', stored);
    expect(sent.status).toBe(201);
    reference = ((await sent.json()) as { reference: string }).reference;
    await until(async () => (await server.sql.all('SELECT id FROM outbox WHERE sent_at IS NULL')).length === 0, 'every delivery sent');
    // As a row of before version 8 whose form was removed: no revision, a variant no form file has.
    await server.sql.run("UPDATE requests SET variant = 'retired', form_revision = NULL WHERE reference = ?", [reference]);
  });

  afterAll(() => server?.dispose());

  it('redeliver sends its desk mail as written, with the photos it names, instead of retrying it for days', async () => {
    const [first] = await deskMails();
    const since = Date.now();
    const run = await requests(['redeliver', reference], { env: storeEnv({ dataDir: server.dataDir, databaseUrl: server.config.databaseUrl }) });
    expect(run.code, run.stderr).toBe(0);
    const [desk] = await until(async () => {
      const rows = await server.sql.all<{ sent_at: number | null; failed_at: number | null; last_error: string | null }>(
        "SELECT o.sent_at, o.failed_at, o.last_error FROM outbox o JOIN requests r ON r.id = o.request_id WHERE r.reference = ? AND o.kind = 'desk'",
        [reference],
      );
      return rows[0] && (rows[0].last_error !== null || (rows[0].sent_at !== null && Number(rows[0].sent_at) >= since)) ? rows : undefined;
    }, 'the desk mail sent again, or an error recorded');
    expect(desk.last_error).toBeNull();
    const again = (await deskMails()).find((m) => m.date && m.date.getTime() >= Math.floor(since / 1000) * 1000) ?? (await deskMails()).at(-1)!;
    expect(again.text).toBe(first.text);
    expect(again.replyTo?.value[0].address).toBe('servicedesk@ilve.example.com');
    expect(again.attachments.map((a) => a.filename).sort()).toEqual([`${reference}-image1.jpg`, `${reference}-image2.png`]);
  });
});
