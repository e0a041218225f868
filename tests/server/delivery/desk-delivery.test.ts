import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoLinks, photoLinkSecret } from '../../../src/server/photos/photo-links';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  brandsWith,
  extendedRequest,
  jpegWithGps,
  png,
  simpleRequest,
  startTestServer,
  storedPhoto,
  submit,
  uploadedName,
  uploadPhoto,
  count,
  type TestServer,
} from '../helpers';

let server: TestServer;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let tls: ReturnType<typeof selfSignedCert>;
const logs: { level: number; msg: string; reference?: string }[] = [];
const METRICS_TOKEN = 'scrape-token-for-desk-tests';
const scrape = () => fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

beforeAll(async () => {
  tls = selfSignedCert();
  smtp = await startSmtpSink();
  const secret = newWebhookSecret();
  receiver = await startWebhookReceiver(secret, tls);
  const brandsDir = brandsWith({
    // The receiver runs on this machine: a loopback address, allowed as a brand file would for its own network.
    ilve: { webhook: { url: receiver.url, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } },
  });
  server = await startTestServer(
    {
      BRANDS_DIR: brandsDir,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'service@portal.example.com',
      SMTP_NAME: 'mx-out.portal.example.com',
      ILVE_WEBHOOK_SECRET: secret,
      WEBHOOK_CA_FILE: tls.certFile,
      WEBHOOK_RETRY_BASE_MS: '50',
      MAILS_PER_RECIPIENT_PER_DAY: '3',
      METRICS_TOKEN: METRICS_TOKEN,
    },
    {},
    {
      logger: {
        level: 'warn',
        stream: { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) },
      },
    },
  );
});
afterAll(async () => {
  await server.dispose();
  await Promise.all([smtp.close(), receiver.close()]);
  tls.dispose();
});

async function twoPhotos(): Promise<[string, string]> {
  const [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
  return Promise.all([uploadedName(server.url, jpeg), uploadedName(server.url, pngBytes, 'b.png', 'image/png')]);
}

async function submitted(brand: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await submit(server.url, brand, body, headers);
  expect(res.status).toBe(201);
  return ((await res.json()) as { reference: string }).reference;
}

const SHORT_REFERENCE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

/** The Date header as written (mailparser's `date` is a Date: the offset the sender wrote is gone). */
const dateLine = (mail: ParsedMail) => mail.headerLines.find((h) => h.key === 'date')?.line ?? '';

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value.map((v) => v.address));

describe('service-desk mail over SMTP', { timeout: 30_000 }, () => {
  it('sends the desk every field in form order, both stored photos, Reply-To the customer', async () => {
    const [image1, image2] = await twoPhotos();
    const reference = await submitted('ilve', { ...simpleRequest(image1, image2), description: 'De oven wordt niet warm.\nAl twee dagen.' });
    const mail = await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(reference));

    expect(mail.subject).toBe(`Reparatieaanvraag ${reference} – Ilve – 1234 AB Utrecht`);
    expect(mail.from?.value[0]).toEqual({ name: 'Ilve Service', address: 'service@portal.example.com' });
    expect(mail.replyTo?.value[0].address).toBe('klant@example.com');
    // The receiver's dedupe key: from the reference and the kind, the same on every attempt and after a crash.
    expect(mail.messageId).toBe(`<${reference}.desk@portal.example.com>`);
    expect(mail.headers.get('x-repair-reference')).toBe(reference);
    expect(smtp.greetings).toContain('mx-out.portal.example.com');

    const lines = [
      `Referentie: ${reference}`,
      'Naam: Jansen',
      'Straatnaam: Dorpsstraat',
      'Huisnummer: 12',
      'Toevoeging: (niet ingevuld)',
      'Postcode: 1234 AB',
      'Plaats: Utrecht',
      'Land: Nederland',
      'E-mail: klant@example.com',
      'Telefoon: 0612345678',
      'Mobiel: (niet ingevuld)',
      'Merk: Ilve',
      'Type: P15',
      'Serienummer: SN-1',
      'Aankoopdatum: 1 maart 2024',
      'Klachtomschrijving:\nDe oven wordt niet warm.\nAl twee dagen.',
      `Foto van het typeplaatje: ${reference}-typeplaatje.jpg (bijlage)`,
      `Foto van de aankoopbon: ${reference}-aankoopbon.png (bijlage)`,
    ];
    const text = mail.text ?? '';
    const positions = lines.map((line) => text.indexOf(line));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(text).toMatch(/Ontvangen: \d{1,2} \w+ 20\d\d om \d\d:\d\d/);
    expect(text).not.toMatch(/\n\s*\n\s*$/);

    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`${reference}-typeplaatje.jpg`, 'image/jpeg'],
      [`${reference}-aankoopbon.png`, 'image/png'],
    ]);
    expect(mail.attachments[0].content.equals(await storedPhoto(server, image1))).toBe(true);
    expect(mail.attachments[1].content.equals(await storedPhoto(server, image2))).toBe(true);
  });

  it('keeps every line break the customer typed, however typed: CR LF, LF, or a lone CR (an old Mac, a pasted text)', async () => {
    for (const [typed, shown] of [
      ['Eerste regel\rTweede regel', 'Eerste regel\nTweede regel'],
      ['Eerste regel\rTweede regel\r\nDerde regel\nVierde regel', 'Eerste regel\nTweede regel\nDerde regel\nVierde regel'],
    ]) {
      const reference = await submitted('ilve', { ...simpleRequest(...(await twoPhotos())), description: typed });
      const mail = await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(reference));
      expect(mail.text).toContain(`Klachtomschrijving:\n${shown}\n`);
    }
  });

  it('writes to a French desk in French, with the extended form\'s fields', async () => {
    const [image1, image2] = await twoPhotos();
    const reference = await submitted('teka', extendedRequest(image1, image2, 'nl'));
    // The spec's Teka desk reads Dutch; Fratelli's reads French (see tests/fixtures/brands/spec/).
    const teka = await smtp.waitFor((m) => to(m).includes('servicedesk@teka.example.com') && m.subject!.includes(reference));
    expect(teka.text).toContain('Installatiedatum: 1 april 2024');
    expect(teka.text).toContain('Akkoord met het privacybeleid: Ja');
    expect(teka.text).toContain('E-mail van dealer: dealer@example.com');

    const [f1, f2] = await twoPhotos();
    const fr = await submitted('fratelli', { ...simpleRequest(f1, f2), brand: 'Fratelli', country: 'lu', postal_code: 'L-1234' });
    const mail = await smtp.waitFor((m) => to(m).includes('servicedesk@fratelli.example.com') && m.subject!.includes(fr));
    expect(mail.subject).toBe(`Demande de réparation ${fr} – Fratelli – L-1234 Utrecht`);
    expect(mail.text).toContain('Pays: Luxembourg');
    expect(mail.text).toContain("Date d'achat: 1 mars 2024");
    expect(mail.attachments.map((a) => a.filename)).toEqual([`${fr}-plaque-signaletique.jpg`, `${fr}-preuve-d-achat.png`]);
  });
});

describe('references, languages and times in mails', { timeout: 30_000 }, () => {
  it('name the short reference, say their language, and give times in the portal’s zone with its offset', async () => {
    const [image1, image2] = await twoPhotos();
    // A French customer on a Dutch-speaking desk (Ilve's): the customer's mail is French, the desk's Dutch.
    const reference = await submitted('ilve', { ...simpleRequest(image1, image2), client_email: 'client-fr@example.com' }, { 'X-Portal-Locale': 'fr' });
    expect(reference).toMatch(SHORT_REFERENCE);
    const customer = await smtp.waitFor((m) => to(m).includes('client-fr@example.com') && m.subject!.includes(reference));
    const desk = await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(reference));

    expect(customer.subject).toBe(`Ilve Service : votre demande de réparation ${reference} a été reçue`);
    expect(customer.text).toContain(`Votre référence : ${reference}`);
    expect(customer.headers.get('content-language')).toBe('fr');
    expect(desk.subject).toBe(`Reparatieaanvraag ${reference} – Ilve – 1234 AB Utrecht`);
    expect(desk.text).toContain(`Referentie: ${reference}`);
    expect(desk.headers.get('content-language')).toBe('nl');
    expect(desk.headers.get('x-repair-reference')).toBe(reference);

    // PORTAL_TIME_ZONE is Europe/Brussels by default: +01:00 in winter, +02:00 in summer.
    expect(desk.text).toMatch(/Ontvangen: \d{1,2} \w+ 20\d\d om \d\d:\d\d \(UTC\+0[12]:00\)/);
    for (const mail of [customer, desk]) {
      expect(dateLine(mail)).toMatch(/^Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) 20\d\d \d\d:\d\d:\d\d \+0[12]00$/);
      expect(Math.abs(mail.date!.getTime() - Date.now())).toBeLessThan(60_000);
    }
  });

  it("tell the desk the customer's language, for the simple form as for the extended one", async () => {
    // A French-speaking customer of Ilve (simple form, no language field) on its Dutch desk; one of Teka (extended).
    const [i1, i2] = await twoPhotos();
    const simple = await submitted('ilve', { ...simpleRequest(i1, i2), client_email: 'fr-simple@example.com' }, { 'X-Portal-Locale': 'fr' });
    const [t1, t2] = await twoPhotos();
    const extended = await submitted('teka', { ...extendedRequest(t1, t2, 'fr'), client_email: 'fr-extended@example.com' });
    // And a Dutch-speaking customer of Fratelli, whose desk reads French.
    const [f1, f2] = await twoPhotos();
    const dutch = await submitted('fratelli', { ...simpleRequest(f1, f2), brand: 'Fratelli', client_email: 'nl-simple@example.com' }, { 'X-Portal-Locale': 'nl' });

    const ilveDesk = await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(simple));
    const tekaDesk = await smtp.waitFor((m) => to(m).includes('servicedesk@teka.example.com') && m.subject!.includes(extended));
    const fratelliDesk = await smtp.waitFor((m) => to(m).includes('servicedesk@fratelli.example.com') && m.subject!.includes(dutch));
    const lines = (mail: ParsedMail) => (mail.text ?? '').split('\n');
    // The same words for both forms: the extended form's field, the simple form's page language.
    expect(lines(tekaDesk)).toContain('Taal van de klant: Frans');
    expect(lines(ilveDesk)).toContain('Taal van de klant: Frans');
    expect(lines(fratelliDesk)).toContain('Langue du client: néerlandais');
    for (const mail of [ilveDesk, tekaDesk, fratelliDesk]) expect(mail.text!.match(/Taal van de klant|Langue du client/g)).toHaveLength(1);
  });

  it('follow PORTAL_TIME_ZONE', async () => {
    // Kolkata keeps +05:30 all year: the expected clock does not depend on the season the test runs in.
    const kolkata = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com', PORTAL_TIME_ZONE: 'Asia/Kolkata' });
    try {
      const photo = await png();
      const [image1, image2] = [await uploadedName(kolkata.url, photo, 'a.png', 'image/png'), await uploadedName(kolkata.url, photo, 'b.png', 'image/png')];
      const res = await submit(kolkata.url, 'ilve', simpleRequest(image1, image2));
      const { reference } = (await res.json()) as { reference: string };
      const desk = await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(reference));
      const shown = /Ontvangen: (.+) om (\d\d):(\d\d) \(UTC\+05:30\)/.exec(desk.text ?? '');
      expect(shown).not.toBeNull();
      const kolkataNow = new Date(Date.now() + 5.5 * 3_600_000);
      const minutesApart = Math.abs(Number(shown![2]) * 60 + Number(shown![3]) - (kolkataNow.getUTCHours() * 60 + kolkataNow.getUTCMinutes()));
      expect(Math.min(minutesApart, 24 * 60 - minutesApart)).toBeLessThanOrEqual(2);
      expect(dateLine(desk)).toMatch(/ \+0530$/);
    } finally {
      await kolkata.dispose();
    }
  });
});

describe('mails to unverified addresses', { timeout: 30_000 }, () => {
  it('carry only the portal\'s words, the reference and the portal\'s brand, with Reply-To the desk', async () => {
    const [image1, image2] = await twoPhotos();
    const body = { ...simpleRequest(image1, image2), brand: 'Politie Nederland', last_name: 'Politie Nederland', description: 'Betaal €500 via deze link' };
    const reference = await submitted('fratelli', { ...body, client_email: 'target@example.com' });
    const mail = await smtp.waitFor((m) => to(m).includes('target@example.com'));
    expect(mail.from?.value[0].name).toBe('Fratelli Service');
    expect(mail.replyTo?.value[0].address).toBe('servicedesk@fratelli.example.com');
    expect(mail.subject).toContain(reference);
    expect(`${mail.subject} ${mail.text}`).not.toMatch(/Politie|Betaal|Jansen|Dorpsstraat/);
    expect(mail.text).toContain('Fratelli');
    expect(mail.text).not.toMatch(/\n\s*\n\s*$/);

    const [e1, e2] = await twoPhotos();
    const ext = await submitted('teka', { ...extendedRequest(e1, e2, 'nl'), last_name: 'Politie', notification: 'Dealer2@Example.com' });
    const dealer = await smtp.waitFor((m) => to(m).includes('dealer2@example.com'));
    expect(dealer.subject).toContain(ext);
    expect(dealer.replyTo?.value[0].address).toBe('servicedesk@teka.example.com');
    expect(dealer.text).not.toMatch(/Politie|Jansen|oven/);
  });

  it('are limited per address per day, while every request is still accepted and reaches the desk', async () => {
    const references: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [image1, image2] = await twoPhotos();
      references.push(await submitted('ilve', { ...simpleRequest(image1, image2), client_email: 'flood@example.com' }));
    }
    for (const reference of references) {
      await smtp.waitFor((m) => to(m).includes('servicedesk@ilve.example.com') && m.subject!.includes(reference));
    }
    expect(smtp.mails.filter((m) => to(m).includes('flood@example.com'))).toHaveLength(3);
  });
});

describe('signed webhook', { timeout: 30_000 }, () => {
  it('is signed (standardwebhooks), retried with the same webhook-id after a 503, and its photo links work', async () => {
    receiver.answer = (_id, seenBefore) => (seenBefore === 0 ? 503 : 204);
    const [image1, image2] = await twoPhotos();
    const reference = await submitted('ilve', simpleRequest(image1, image2));
    const delivered = await receiver.waitFor((w) => w.event.data.reference === reference && w.status === 204);
    const attempts = receiver.received.filter((w) => w.event.data.reference === reference);
    expect(attempts.map((w) => [w.id, w.status])).toEqual([
      [delivered.id, 503],
      [delivered.id, 204],
    ]);
    expect(delivered.id).toBe(`msg_${reference}.webhook`);
    expect(receiver.rejected).toEqual([]);

    const { data, type } = delivered.event;
    expect(type).toBe('repair_request.received');
    expect(data.reference).toMatch(SHORT_REFERENCE);
    expect(data).toMatchObject({ reference, brand: 'ilve', brandName: 'Ilve', variant: 'simple', locale: 'nl' });
    expect(Date.parse(String(data.receivedAt))).toBeGreaterThan(Date.now() - 60_000);
    const { image1: _1, image2: _2, ...fields } = simpleRequest(image1, image2);
    expect(data.request).toEqual(fields);

    const photos = data.photos as { field: string; url: string; fileName: string; contentType: string }[];
    expect(photos.map((p) => [p.field, p.fileName, p.contentType])).toEqual([
      ['image1', `${reference}-typeplaatje.jpg`, 'image/jpeg'],
      ['image2', `${reference}-aankoopbon.png`, 'image/png'],
    ]);
    for (const [i, name] of [image1, image2].entries()) {
      const res = await fetch(photos[i].url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(await storedPhoto(server, name))).toBe(true);
    }

    // Altered or unsigned: 403. A later expiry with the old signature: 403. Genuine but expired: 410.
    const url = new URL(photos[0].url);
    const altered = new URL(url);
    altered.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -2)}AA`);
    const stretched = new URL(url);
    stretched.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const otherPhoto = new URL(url);
    otherPhoto.pathname = `/api/photos/${image2}`;
    for (const bad of [altered, stretched, otherPhoto, new URL(url.pathname, url)]) {
      expect((await fetch(bad)).status).toBe(403);
    }
    const key = photoLinkSecret(server.config.photoUrlSecret, server.dataDir);
    const expired = new PhotoLinks(key, server.url, 1000).link(image1, Date.now() - 60_000);
    expect((await fetch(expired.url)).status).toBe(410);
    expect((await fetch(`${server.url}/api/photos/`)).status).not.toBe(200);
  });

  it('gives up at once on a 4xx other than 408/429, logging one error with the reference', async () => {
    receiver.answer = () => 410;
    const [image1, image2] = await twoPhotos();
    const reference = await submitted('ilve', simpleRequest(image1, image2));
    await receiver.waitFor((w) => w.event.data.reference === reference);
    await expect.poll(() => logs.filter((l) => l.level === 50 && l.reference === reference).length, { timeout: 10_000 }).toBe(1);
    // Given up for good: the outbox will not try it again.
    const givenUp = 'SELECT count(*) AS n FROM outbox o JOIN requests r ON r.id = o.request_id WHERE o.kind = ? AND o.failed_at IS NOT NULL AND r.reference = ?';
    await expect.poll(() => count(server, givenUp, ['webhook', reference]), { timeout: 10_000 }).toBe(1);
    expect(receiver.received.filter((w) => w.event.data.reference === reference)).toHaveLength(1);
    expect(logs.filter((l) => l.reference === reference)).toHaveLength(1);
    receiver.answer = () => 204;

    const metrics = await (await scrape()).text();
    expect(metrics).toMatch(/portal_delivery_attempts_total\{kind="webhook",outcome="failed"\} 1/);
    expect(metrics).toMatch(/portal_outbox_failed\{kind="webhook"\} 1/);
  });
});

describe('/metrics', { timeout: 30_000 }, () => {
  it('counts requests, uploads by outcome and reason, and the outbox by kind', async () => {
    await uploadPhoto(server.url, Buffer.from('<html>not a photo</html>'), 'x.jpg');
    const res = await scrape();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/portal_requests_accepted_total\{brand="ilve"\} [1-9]/);
    expect(text).toMatch(/portal_uploads_total\{outcome="accepted",reason=""\} [1-9]/);
    expect(text).toMatch(/portal_uploads_total\{outcome="refused",reason="not-an-image"\} 1/);
    expect(text).toMatch(/portal_delivery_attempts_total\{kind="desk",outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/portal_delivery_attempts_total\{kind="webhook",outcome="retry"\} [1-9]/);
    expect(text).toMatch(/portal_outbox_pending\{kind="desk"\} \d/);
    expect(text).toMatch(/portal_outbox_oldest_pending_age_seconds \d/);
  });
});
