/**
 * What a brand owner changes as data only (docs/forms-as-data.md), taken in by
 * the real server on each backend: a field added to the extended form, a form
 * with one photo and a whole number, German for one brand, Germany for
 * another. Requests are checked by the changed rules, stored with their
 * photos, mailed to the desk (a real SMTP server) and sent by webhook (a real
 * receiver), and the staff's commands show, export and erase them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests, storeEnv } from '../cli/requests/run-requests';
import { addBrandLike, addGermanFor, addGermanyFor, addOutdoorForm, addPurchasePlace } from '../support/data-changes';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { selfSignedCert } from '../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { installSpecData } from '../support/data-folders';
import { extendedRequest, jpegWithGps, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from './helpers';

let root: string;
let server: TestServer;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let tls: ReturnType<typeof selfSignedCert>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'forms-as-data-'));
  installSpecData(root);
  tls = selfSignedCert();
  smtp = await startSmtpSink();
  const secret = newWebhookSecret();
  receiver = await startWebhookReceiver(secret, tls);
  addPurchasePlace(root);
  addOutdoorForm(root);
  addBrandLike(root, 'tuinco', 'fratelli', (b) => {
    b.form = 'outdoor';
    b.serviceDesk.language = 'nl';
    // A receiver on this machine: a loopback address, allowed as for a company's own network.
    b.serviceDesk.webhook = { url: receiver.url, secretEnv: 'TUINCO_WEBHOOK_SECRET', allowPrivateNetwork: true };
  });
  addGermanyFor(root, 'tuinco');
  addGermanFor(root, 'teka');
  server = await startTestServer({
    SCHEMAS_DIR: join(root, 'schemas'),
    BRANDS_DIR: join(root, 'brands'),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'service@portal.example.com',
    TUINCO_WEBHOOK_SECRET: secret,
    WEBHOOK_CA_FILE: tls.certFile,
  });
});
afterAll(async () => {
  await server?.dispose();
  await Promise.all([smtp?.close(), receiver?.close()]);
  tls?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const photo = async () => uploadedName(server.url, await jpegWithGps());

/** A request of the outdoor form: the simple form's fields with one photo and the operating hours. */
async function outdoorRequest(patch: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { image2: _second, ...request } = simpleRequest(await photo(), 'unused');
  return { ...request, brand: 'Tuinco', country: 'de', postal_code: '10115', city: 'Berlin', operating_hours: 1200, ...patch };
}

async function stored(brand: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await submit(server.url, brand, body, headers);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { reference: string }).reference;
}

const deskMailOf = (reference: string) => smtp.waitFor((m: ParsedMail) => m.subject?.includes(reference) === true && m.to !== undefined && JSON.stringify(m.to).includes('servicedesk@'));

describe('a form with one photo and a whole number, for a brand serving Germany', () => {
  it('takes a request with one photo; the desk gets one attachment and the number, the webhook one photo link', async () => {
    const reference = await stored('tuinco', await outdoorRequest());
    const desk = await deskMailOf(reference);
    expect(desk.attachments.map((a) => a.filename)).toEqual([`${reference}-typeplaatje.jpg`]);
    expect(desk.text).toContain('Draaiuren: 1200');
    expect(desk.text).toContain('Land: Duitsland');
    // The simple-like form has no language field: the desk is told the customer's language all the same.
    expect(desk.text).toContain('Taal van de klant: Nederlands');
    const hook = await receiver.waitFor((w) => w.event.data.reference === reference);
    const photos = hook.event.data.photos as { field: string; fileName: string; url: string }[];
    expect(photos.map((p) => [p.field, p.fileName])).toEqual([['image1', `${reference}-typeplaatje.jpg`]]);
    expect((await fetch(photos[0].url)).status).toBe(200);
    expect(hook.event.data.request).toMatchObject({ operating_hours: 1200, country: 'de' });
  });

  it.each([
    ['a German postal code of four digits', { postal_code: '1011' }, { postal_code: ['Ongeldige postcode'] }],
    ['operating hours past 100000', { operating_hours: 100001 }, { operating_hours: ['Invalid number'] }],
    ['operating hours as text', { operating_hours: '1200' }, { operating_hours: ['Invalid number'] }],
    ['no operating hours', { operating_hours: undefined }, { operating_hours: ['Dit veld is verplicht'] }],
    ['a second photo the form does not have', { image2: 'x.jpg' }, { image2: ['Ongeldige waarde'] }],
  ])('refuses %s with the form\'s own words', async (_what, patch, fields) => {
    const res = await submit(server.url, 'tuinco', await outdoorRequest(patch), { 'x-portal-locale': 'nl' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: unknown }).fields).toEqual(fields);
  });

  it('is the only brand that takes Germany: another refuses it', async () => {
    const res = await submit(server.url, 'ilve', { ...simpleRequest(await photo(), await photo()), country: 'de', postal_code: '10115' }, { 'x-portal-locale': 'nl' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: unknown }).fields).toEqual({ country: ['Ongeldige waarde'] });
  });
});

describe('a field added to the extended form, and German for one brand', () => {
  it('stores the purchase place and gives it to the desk under its label', async () => {
    const reference = await stored('teka', { ...extendedRequest(await photo(), await photo(), 'nl'), purchase_place: 'Winkel Centrum' });
    const desk = await deskMailOf(reference);
    expect(desk.text).toMatch(/\nAankoopdatum: .*\nAankoopplaats: Winkel Centrum\nInstallatiedatum: /);
    expect(desk.attachments).toHaveLength(2);
  });

  it('refuses a purchase place past 80 characters', async () => {
    const res = await submit(server.url, 'teka', { ...extendedRequest(await photo(), await photo(), 'nl'), purchase_place: 'x'.repeat(81) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: unknown }).fields).toEqual({ purchase_place: ['At most 80 characters'] });
  });

  it('takes a German request for the brand that offers German: the confirmation in German, Dutch where German has no text', async () => {
    // German is this test's own language (the spec's forms have none): the request of the spec's customer, in German.
    const body = { ...extendedRequest(await photo(), await photo(), 'nl'), language: 'de', client_email: 'kunde@example.com' };
    const reference = await stored('teka', body);
    const confirmation = await smtp.waitFor((m) => m.subject?.includes(reference) === true && JSON.stringify(m.to).includes('kunde@'));
    expect(confirmation.subject).toBe(`Teka Service: Ihre Reparaturanfrage ${reference} ist eingegangen`);
    expect(confirmation.headers.get('content-language')).toBe('de');
    // The mail's text was not translated: it falls back to Dutch.
    expect(confirmation.text).toContain('Wij hebben uw reparatieaanvraag voor Teka ontvangen');
    const desk = await deskMailOf(reference);
    expect(desk.text).toContain('Taal van de klant: Deutsch');
  });

  it('answers another brand\'s German request in Dutch: that brand does not offer German', async () => {
    const res = await submit(server.url, 'kuppersbusch', { ...extendedRequest(await photo(), await photo(), 'nl'), language: 'de', brand: 'Kuppersbusch' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Eén of meerdere velden zijn niet juist ingevuld.', fields: { language: ['Invalid value'] } });
  });
});

describe('the staff commands follow the forms', () => {
  // Three commands, each a process of its own.
  it('export has a column per field of every form, show lists the one photo, erase removes it', { timeout: 60_000 }, async () => {
    const email = 'tuin@example.com';
    const reference = await stored('tuinco', await outdoorRequest({ client_email: email }));
    const env = { ...storeEnv({ dataDir: server.dataDir, databaseUrl: server.config.databaseUrl }), SCHEMAS_DIR: join(root, 'schemas') };

    const exported = await requests(['export'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const [header, ...rows] = parse(exported.stdout.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
    expect(header).toEqual(expect.arrayContaining(['Draaiuren', 'Aankoopplaats']));
    const row = rows.find((r) => r.includes(reference))!;
    expect(row[header.indexOf('Draaiuren')]).toBe('1200');

    const shown = await requests(['show', reference], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { photos: string[] }).photos).toHaveLength(1);

    const erased = await requests(['erase', '--email', email], { env });
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toMatch(/their requests \(table requests\)\s+1\n\s*photos of those requests \(table photos\)\s+1\n/);
    expect((await requests(['show', reference], { env })).code).toBe(1);
  });
});
