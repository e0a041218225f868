/**
 * Forms change, requests stay whole. Requests are sent; months later the
 * brand owner edits the forms as data (every edit one that `npm run validate`
 * accepts): the customer's e-mail field renamed (its role kept), a field
 * removed, a photo's target renamed with its attachment name, `personal`
 * moved, a required field added, the dealer's field renamed; and the desk's
 * language changes in the brand file. The server
 * restarts on the same store with the new forms, and every reader of the old
 * requests reads them as they were sent: `show --email`, an exact replay, the
 * confirmation after a post without scripts, `redeliver` (the desk's mail and
 * the webhook), the exports, and last `erase --email`, which leaves nothing
 * of the person in the database's files, the mail files (decoded) or the photos.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { validateProject } from '../../../src/cli/validate';
import { buildApp } from '../../../src/server/app';
import { BACKEND } from '../../support/backend';
import { installSpecData } from '../../support/data-folders';
import { brandsWith } from '../../support/brands-with';
import { freePort } from '../../support/free-port';
import { checkpointedTableFiles, privatePostgres, type PrivatePostgres } from '../../support/private-postgres';
import { keptMail, keptMails } from '../helpers';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { requests, storeEnv } from '../../cli/requests/run-requests';
import { formBody, NO_SCRIPT_WEB_FILES, seedOf, typedValues } from '../no-script/no-script-support';
import { extendedRequest, jpegWithGps, png, simpleRequest, submit, testConfig, until, uploadedName } from '../helpers';
import { probeDatabase, type DatabaseProbe } from '../../support/database-probe';

const SECRET = 'forms-change-photo-link-secret-32chars!';
/** One person, as customer of one request and dealer of another; a name and a phone unusual enough that any copy is a leftover. */
const AS_CUSTOMER = 'Quinta.Revisionmarker+own@Example.com';
const AS_DEALER = 'quinta.revisionmarker+dealer@example.com';
const NAME = 'Omzetnaamtest';
const MOBILE = '0699887766';
const MARKERS = ['revisionmarker', NAME.toLowerCase(), MOBILE];
const NO_SCRIPT_ADDRESS = 'zonder-script-revisie@example.com';
const REPLAY_KEY = 'forms-change-replay-key-1';

type Json = Record<string, unknown>;

/** Edits one JSON file of the schemas folder as a person does in an editor: read, change, write back. */
function editJson(dir: string, file: string, change: (data: Json) => void): void {
  const path = join(dir, file);
  const data = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(data);
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The edits, as a brand owner makes them in schemas/ (each passes npm run validate). */
function changeForms(schemas: string): void {
  const renamed = <T>(record: Record<string, T>, from: string, to: string) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));
  for (const form of ['simple', 'extended']) {
    editJson(schemas, `forms/${form}.schema.json`, (schema) => {
      let properties = schema.properties as Record<string, Record<string, unknown>>;
      let required = schema.required as string[];
      // The receipt photo's stored name goes to a field of another name.
      properties = renamed(properties, 'image2', 'receipt_photo');
      required = required.map((f) => (f === 'image2' ? 'receipt_photo' : f));
      if (form === 'simple') {
        // The customer's e-mail field gets a new name, and keeps its role (fields.json's definition).
        properties = renamed(properties, 'client_email', 'email_address');
        required = required.map((f) => (f === 'client_email' ? 'email_address' : f));
        delete properties.phone_number2;
        // A new required field, and `personal` moved from the name to it.
        properties.purchase_place = { type: 'string', maxLength: 80, plainText: 'line', filled: true, personal: true, title: 'Purchase place' };
        properties.last_name = { ...properties.last_name, personal: false };
        required.push('purchase_place');
      } else {
        properties = renamed(properties, 'notification', 'dealer_email');
      }
      schema.properties = properties;
      schema.required = required;
    });
    editJson(schemas, `forms/${form}.ui.json`, (ui) => {
      const options = ui['ui:options'] as { sections: { id: string; fields: string[] }[] };
      for (const section of options.sections) {
        section.fields = section.fields.flatMap((f) =>
          form === 'simple' && f === 'client_email' ? ['email_address'] : form === 'simple' && f === 'phone_number2' ? [] : form === 'extended' && f === 'notification' ? ['dealer_email'] : [f],
        );
        if (form === 'simple' && section.id === 'device') section.fields.push('purchase_place');
      }
      (ui.upload_2 as { 'ui:options': { target: string } })['ui:options'].target = 'receipt_photo';
      ui.receipt_photo = ui.image2;
      delete ui.image2;
      const [from, to] = form === 'simple' ? ['client_email', 'email_address'] : ['notification', 'dealer_email'];
      if (ui[from] !== undefined) {
        ui[to] = ui[from];
        delete ui[from];
      }
      if (form === 'simple') delete ui.phone_number2;
    });
  }
  for (const language of ['nl', 'fr']) {
    editJson(schemas, `i18n/${language}.json`, (texts) => {
      const fields = texts.fields as Record<string, string>;
      fields.email_address = fields.client_email;
      fields.dealer_email = fields.notification;
      delete fields.notification;
      fields.purchase_place = language === 'nl' ? 'Aankoopplaats' : "Lieu d'achat";
      // The receipt is named anew in the desk's mail; the old name is gone from the file.
      const desk = (texts.mail as { desk: { photoNames: Record<string, string> } }).desk;
      desk.photoNames = { image1: desk.photoNames.image1, receipt_photo: language === 'nl' ? 'kassabon' : 'ticket' };
    });
  }
}

/** Files under `dir` whose bytes hold a marker (compared without case). */
function filesHolding(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((entry) => {
    const path = join(dir, entry);
    if (!statSync(path).isFile()) return false;
    const text = readFileSync(path).toString('latin1').toLowerCase();
    return MARKERS.some((m) => text.includes(m.toLowerCase()));
  });
}

/** A kept mail (SMTP_URL unset: a file, or a row with PostgreSQL), parsed. */
async function readMail(server: Parameters<typeof keptMail>[0], reference: string, kind: string) {
  const eml = await keptMail(server, `${reference}.${kind}.eml`);
  if (!eml) throw new Error(`no ${kind} mail of ${reference} kept`);
  return simpleParser(eml);
}

describe('requests sent before the forms changed', { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'forms-change-'));
  // The brand owner's project: the spec's brands and forms, as `npm run validate` reads them.
  const project = mkdtempSync(join(tmpdir(), 'forms-change-project-'));
  const schemas = join(project, 'schemas');
  let db: PrivatePostgres | undefined;
  let receiver: WebhookReceiver;
  let tls: ReturnType<typeof selfSignedCert>;
  let brandsDir: string;
  let app: FastifyInstance | undefined;
  let url: string;
  let sql: DatabaseProbe;
  let env: Record<string, string>;
  const config = () => testConfig(root, env, NO_SCRIPT_WEB_FILES);
  const dataDir = () => join(root, 'data');
  let own: { reference: string; body: Record<string, unknown>; image1: string; image2: string };
  let named: string;
  let confirmationCookie: string;
  let deskMailBefore: ParsedMail;

  async function start(): Promise<void> {
    const port = await freePort();
    env = { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
    app = await buildApp(config());
    await app.listen({ port, host: '127.0.0.1' });
    url = `http://127.0.0.1:${port}`;
  }

  const allSent = () => until(async () => (await sql.all('SELECT id FROM outbox WHERE sent_at IS NULL')).length === 0, 'every delivery sent');

  beforeAll(async () => {
    installSpecData(project);
    tls = selfSignedCert();
    const secret = newWebhookSecret();
    receiver = await startWebhookReceiver(secret, tls);
    brandsDir = brandsWith({ ilve: { webhook: { url: receiver.url, secretEnv: 'ILVE_WEBHOOK_SECRET', allowPrivateNetwork: true } } });
    db = BACKEND === 'postgres' ? await privatePostgres() : undefined;
    env = {
      SCHEMAS_DIR: schemas,
      BRANDS_DIR: brandsDir,
      PHOTO_URL_SECRET: SECRET,
      ILVE_WEBHOOK_SECRET: secret,
      WEBHOOK_CA_FILE: tls.certFile,
      ...(db ? { DATABASE_URL: db.url } : {}),
    };
    await start();
    sql = probeDatabase(config());

    const [image1, image2] = [await uploadedName(url, await jpegWithGps()), await uploadedName(url, await png(), 'b.png', 'image/png')];
    const body = { ...simpleRequest(image1, image2), client_email: AS_CUSTOMER, last_name: NAME, phone_number2: MOBILE };
    const sent = await submit(url, 'ilve', body, { 'idempotency-key': REPLAY_KEY });
    expect(sent.status).toBe(201);
    own = { reference: ((await sent.json()) as { reference: string }).reference, body, image1, image2 };

    const [d1, d2] = [await uploadedName(url, await png(), 'c.png', 'image/png'), await uploadedName(url, await png(), 'd.png', 'image/png')];
    const dealt = await submit(url, 'teka', { ...extendedRequest(d1, d2, 'nl'), notification: AS_DEALER });
    expect(dealt.status).toBe(201);
    named = ((await dealt.json()) as { reference: string }).reference;

    const photos: [string, Buffer, string, string][] = [
      ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
      ['upload_2', await png(), 'bon.png', 'image/png'],
    ];
    const posted = await fetch(`${url}/ilve/nl/nl`, {
      method: 'POST',
      body: formBody(typedValues({ client_email: NO_SCRIPT_ADDRESS }), photos, 'forms-change-no-script'),
      headers: { origin: url },
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    confirmationCookie = (posted.headers.get('set-cookie') ?? '').split(';')[0];

    await allSent();
    await receiver.waitFor((w) => w.event.data.reference === own.reference);
    deskMailBefore = await readMail({ sql, dataDir: dataDir() }, own.reference, 'desk');

    // Months later: the forms change as data, and the server restarts with them on the same store.
    await app?.close();
    app = undefined;
    changeForms(schemas);
    expect(validateProject(project).problems).toEqual([]);
    // And Ilve's desk now reads French: what was written in Dutch stays Dutch when sent again.
    editJson(brandsDir, 'ilve.json', (brand) => {
      (brand.serviceDesk as { language: string }).language = 'fr';
    });
    await start();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await sql?.close();
    await receiver?.close();
    tls?.dispose();
    db?.remove();
    rmSync(root, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
    rmSync(brandsDir, { recursive: true, force: true });
  });

  const staff = (args: string[]) => requests(args, { env: { ...storeEnv({ dataDir: dataDir(), databaseUrl: db?.url ?? '' }), SCHEMAS_DIR: schemas } });

  it('show --email finds the requests by the roles of the form they were sent with', async () => {
    const run = await staff(['show', '--email', 'quinta.revisionmarker@example.com']);
    expect(run.code, run.stderr).toBe(0);
    const held = JSON.parse(run.stdout) as { requests: { reference: string; request: Record<string, unknown> }[]; namedAsDealer: { reference: string }[] };
    expect(held.requests.map((r) => r.reference)).toEqual([own.reference]);
    expect(held.requests[0].request).toEqual(own.body);
    expect(held.namedAsDealer.map((r) => r.reference)).toEqual([named]);
  });

  it('answers an exact replay with the first answer, though today’s form would refuse the body', async () => {
    const again = await submit(url, 'ilve', own.body, { 'idempotency-key': REPLAY_KEY });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ reference: own.reference });
    // A different body under the key is still not taken for it.
    const changed = await submit(url, 'ilve', { ...own.body, city: 'Amersfoort' }, { 'idempotency-key': REPLAY_KEY });
    expect(changed.status).toBe(400);
  });

  it('still shows the confirmation after a post without scripts, with the address it was confirmed to', async () => {
    const page = await fetch(`${url}/ilve/nl/nl`, { headers: { cookie: confirmationCookie, 'sec-fetch-site': 'same-origin' } });
    expect(seedOf(await page.text()).seed.sentTo).toBe(NO_SCRIPT_ADDRESS);
  });

  it('redelivers the desk mail and the webhook the original delivery had: Reply-To, attachments and their names, in the language it was written in', async () => {
    const before = receiver.received.filter((w) => w.event.data.reference === own.reference).length;
    const since = Date.now();
    const run = await staff(['redeliver', own.reference]);
    expect(run.code, run.stderr).toBe(0);
    await until(
      async () => {
        const rows = await sql.all<{ id: number; sent_at: number | null }>(
          `SELECT o.id, o.sent_at FROM outbox o JOIN requests r ON r.id = o.request_id WHERE r.reference = ? AND o.kind = 'desk'`,
          [own.reference],
        );
        return rows[0]?.sent_at !== null && Number(rows[0].sent_at) >= since ? rows : undefined;
      },
      'the desk mail sent again',
    );
    const again = await readMail({ sql, dataDir: dataDir() }, own.reference, 'desk');
    expect(again.replyTo?.value[0].address?.toLowerCase()).toBe(AS_CUSTOMER.toLowerCase());
    expect(again.replyTo?.value[0].address).toBe(deskMailBefore.replyTo?.value[0].address);
    const names = (mail: ParsedMail) => mail.attachments.map((a) => a.filename);
    expect(names(again)).toEqual(names(deskMailBefore));
    expect(names(again)).toEqual([`${own.reference}-typeplaatje.jpg`, `${own.reference}-aankoopbon.png`]);
    expect(again.text).toBe(deskMailBefore.text);
    expect(again.headers.get('content-language')).toBe('nl');

    const hook = await receiver.waitFor((w) => w.event.data.reference === own.reference && receiver.received.filter((x) => x.event.data.reference === own.reference).indexOf(w) >= before);
    const photos = hook.event.data.photos as { field: string; fileName: string }[];
    expect(photos.map((p) => [p.field, p.fileName])).toEqual([
      ['image1', `${own.reference}-typeplaatje.jpg`],
      ['image2', `${own.reference}-aankoopbon.png`],
    ]);
  });

  it('exports every stored value under its field, in CSV, xlsx and JSON lines, beside requests of today’s forms', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'forms-change-export-'));
    try {
      const jsonl = await staff(['export', '--format', 'jsonl']);
      expect(jsonl.code, jsonl.stderr).toBe(0);
      const records = jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line) as { reference: string; request: Record<string, unknown> });
      expect(records.find((r) => r.reference === own.reference)?.request).toEqual(own.body);

      const csvFile = join(folder, 'aanvragen.csv');
      expect((await staff(['export', '--out', csvFile])).code).toBe(0);
      const [header, ...rows] = parse(readFileSync(csvFile, 'utf8').replace(/^\uFEFF/, ''), { delimiter: ';', relaxColumnCount: false }) as string[][];
      const row = rows.find((r) => r[0] === own.reference)!;
      // A label two fields share (the e-mail field renamed, its label kept) names each column's field.
      const under = (label: string) => header.flatMap((h, i) => (h === label || h.startsWith(`${label} (`) ? [row[i]] : []));
      expect(new Set(header).size).toBe(header.length);
      expect(header).toEqual(expect.arrayContaining(['E-mail (email_address)', 'E-mail (client_email)']));
      expect(under('E-mail (client_email)')).toEqual([AS_CUSTOMER]);
      expect(under('Mobiel')).toEqual([MOBILE]);
      expect(under('Naam')).toEqual([NAME]);
      // The receipt keeps the name its desk mail attached it under.
      expect(under('Foto van de aankoopbon')).toContain(`${own.reference}-aankoopbon.png`);
      expect(header.slice(0, 5)).toEqual(['Referentie', 'Ontvangen', 'Merkpagina', 'Formulier', 'Taal van de pagina']);
      // Every value the request holds is in its row.
      for (const value of Object.values(own.body)) {
        if (typeof value === 'string' && !value.endsWith('.jpg') && !value.endsWith('.png') && value !== 'nl' && value !== '2024-03-01') expect(row).toContain(value);
      }

      const xlsxFile = join(folder, 'aanvragen.xlsx');
      expect((await staff(['export', '--out', xlsxFile])).code).toBe(0);
      // Text cells are shared strings: the workbook's texts are all in one part.
      const sheet = strFromU8(unzipSync(readFileSync(xlsxFile))['xl/sharedStrings.xml']);
      for (const value of [own.reference, AS_CUSTOMER, MOBILE, NAME, `${own.reference}-aankoopbon.png`]) expect(sheet).toContain(value.replace(/&/g, '&amp;'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('erase --email leaves nothing of the person in the database files, the mail files (decoded) or the photos, and says what it removed', async () => {
    // Before: the person is where the test looks (with PostgreSQL, the mails too are in the database's files).
    expect([...filesHolding(dataDir()), ...(db ? filesHolding(await checkpointedTableFiles(db)) : [])].length).toBeGreaterThan(0);
    const run = await staff(['erase', '--email', 'QUINTA.REVISIONMARKER@example.com']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}their requests \(table requests\) +1$/m);
    expect(run.stdout).toMatch(/^ {2}other requests naming them as dealer, address taken out \(table requests\) +1$/m);

    expect(filesHolding(dataDir())).toEqual([]);
    for (const { name: file, eml } of await keptMails({ sql, dataDir: dataDir() })) {
      const mail = await simpleParser(eml);
      const seen = [mail.text ?? '', mail.subject ?? '', mail.headerLines.map((h) => h.line).join('\n'), ...mail.attachments.map((a) => a.content.toString('latin1'))].join('\n').toLowerCase();
      for (const marker of MARKERS) expect(seen, file).not.toContain(marker.toLowerCase());
    }
    if (db) expect(filesHolding(await checkpointedTableFiles(db))).toEqual([]);
    const [kept] = await sql.all<{ payload: string }>('SELECT payload FROM requests WHERE reference = ?', [named]);
    expect(JSON.parse(kept.payload)).not.toHaveProperty('notification');
    expect(await sql.all('SELECT id FROM requests WHERE reference = ?', [own.reference])).toEqual([]);
  });
});
