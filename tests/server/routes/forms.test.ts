import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extendedRequest,
  jpegWithGps,
  keptMail,
  png,
  simpleRequest,
  startTestServer,
  storedPhoto,
  storedPhotoNames,
  submit,
  uploadedName,
  type TestServer,
} from '../helpers';

let server: TestServer;
let jpeg: Buffer;
let pngBytes: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
});
afterAll(() => server.dispose());

const twoPhotos = async () => Promise.all([uploadedName(server.url, jpeg), uploadedName(server.url, pngBytes, 'b.png', 'image/png')]);

function query<T>(sql: string, ...params: (string | number)[]): Promise<T[]> {
  return server.sql.all<T>(sql, params);
}

/** Undoes quoted-printable soft breaks and escapes, so the test reads the mail as sent. */
function readableMail(eml: string): string {
  const unfolded = eml.replace(/=\r?\n/g, '');
  return Buffer.from(unfolded.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

async function waitForMail(reference: string, kind: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const [row] = await query<{ id: number; sent_at: number | null }>(
      'SELECT o.id, o.sent_at FROM outbox o JOIN requests r ON r.id = o.request_id WHERE r.reference = ? AND o.kind = ?',
      reference,
      kind,
    );
    const kept = row?.sent_at ? await keptMail(server, `${reference}.${kind}.eml`) : undefined;
    if (kept) return readableMail(kept.toString('utf8'));
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${kind} mail for ${reference}`);
}

describe('POST /api/forms/:brand', () => {
  it('stores a valid simple request after two uploads and mails the customer in Dutch', async () => {
    const [image1, image2] = await twoPhotos();
    const res = await submit(server.url, 'ilve', simpleRequest(image1, image2), { 'Idempotency-Key': crypto.randomUUID() });
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };
    const [row] = await query<{ brand: string; locale: string; payload: string }>('SELECT * FROM requests WHERE reference = ?', reference);
    expect(row).toMatchObject({ brand: 'ilve', locale: 'nl' });
    expect(JSON.parse(row.payload)).toEqual(simpleRequest(image1, image2));
    expect(await query('SELECT name FROM photos WHERE request_id IS NOT NULL AND name IN (?, ?)', image1, image2)).toHaveLength(2);

    const mail = await waitForMail(reference, 'confirmation');
    expect(mail).toContain('To: klant@example.com');
    expect(mail).toContain('Wij hebben uw reparatieaanvraag voor Ilve ontvangen');
    expect(mail).toContain(reference);
    // The address is not verified: none of the customer's own text goes to it.
    expect(mail).not.toMatch(/Jansen|De oven/);
  });

  it('mails an extended request in its language, and the dealer too', async () => {
    const [image1, image2] = await twoPhotos();
    const res = await submit(server.url, 'teka', extendedRequest(image1, image2, 'fr'), { 'X-Portal-Locale': 'fr' });
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };
    expect(await waitForMail(reference, 'confirmation')).toContain('Nous avons reçu votre demande de réparation pour Teka');
    expect(await waitForMail(reference, 'dealer')).toContain('To: dealer@example.com');
  });

  it('writes the service desk\'s mail, with both photos, as an .eml file when no SMTP server is set', async () => {
    const [image1, image2] = await twoPhotos();
    const res = await submit(server.url, 'ilve', simpleRequest(image1, image2));
    const { reference } = (await res.json()) as { reference: string };
    await waitForMail(reference, 'desk');
    const desk = await simpleParser((await keptMail(server, `${reference}.desk.eml`))!);
    expect(desk.replyTo?.value[0].address).toBe('klant@example.com');
    expect(desk.subject).toContain(reference);
    expect(desk.attachments.map((a) => a.filename)).toEqual([`${reference}-typeplaatje.jpg`, `${reference}-aankoopbon.png`]);
    expect(desk.attachments[0].content.equals(await storedPhoto(server, image1))).toBe(true);
  });

  it('answers 404 for a brand that does not exist', async () => {
    const res = await submit(server.url, 'acme', simpleRequest('a.jpg', 'b.jpg'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it('answers 400 with field messages in the locale of the X-Portal-Locale header', async () => {
    const body = { ...simpleRequest('a.jpg', 'b.jpg'), postal_code: '0123 AB', house_number: '12' } as Record<string, unknown>;
    delete body.city;
    const nl = await submit(server.url, 'ilve', body);
    expect(nl.status).toBe(400);
    expect(((await nl.json()) as { fields: unknown }).fields).toEqual({
      city: ['Dit veld is verplicht'],
      postal_code: ['Ongeldige postcode'],
      house_number: ['Invalid number'],
    });
    const fr = await submit(server.url, 'ilve', body, { 'X-Portal-Locale': 'fr' });
    expect(fr.status).toBe(400);
    expect(((await fr.json()) as { fields: unknown }).fields).toEqual({
      city: ['Ce champ est obligatoire'],
      postal_code: ['Code postal non valide'],
      house_number: ['Nombre non valide'],
    });
  });

  it('refuses unknown properties and the extended form without ticked terms', async () => {
    const extra = await submit(server.url, 'ilve', { ...simpleRequest('a.jpg', 'b.jpg'), admin: true });
    expect(extra.status).toBe(400);
    const terms = await submit(server.url, 'kuppersbusch', { ...extendedRequest('a.jpg', 'b.jpg', 'nl'), isAkkoord: false });
    expect(terms.status).toBe(400);
    expect(((await terms.json()) as { fields: Record<string, string[]> }).fields.isAkkoord).toEqual(['This field is required']);
  });

  it('refuses form-only fields (upload_1/upload_2) with 400', async () => {
    const body = { ...simpleRequest('a.jpg', 'b.jpg'), upload_1: { name: 'a.jpg', size: 10, type: 'image/jpeg' } };
    const res = await submit(server.url, 'ilve', body);
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as { fields: object }).fields)).toEqual(['upload_1']);
  });

  it('answers 422 for photos this server never stored', async () => {
    const res = await submit(server.url, 'ilve', simpleRequest('00000000-0000-4000-8000-000000000000.jpg', 'nope.png'));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ photos: ['image1', 'image2'] });
  });

  it('answers 422 for a photo another request already used, and for the same photo twice', async () => {
    const [image1, image2] = await twoPhotos();
    expect((await submit(server.url, 'ilve', simpleRequest(image1, image2))).status).toBe(201);
    const [fresh] = await twoPhotos();
    const reused = await submit(server.url, 'ilve', simpleRequest(fresh, image2));
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ photos: ['image2'] });
    const twice = await submit(server.url, 'ilve', simpleRequest(fresh, fresh));
    expect(twice.status).toBe(422);
  });

  it('stores one request for 50 concurrent submits with one Idempotency-Key, all answered alike', async () => {
    const [image1, image2] = await twoPhotos();
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => submit(server.url, 'ilve', simpleRequest(image1, image2), { 'Idempotency-Key': key })),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(await query('SELECT id FROM requests WHERE idempotency_key = ?', key)).toHaveLength(1);
    const queued = await query<{ kind: string }>('SELECT o.kind FROM outbox o JOIN requests r ON r.id = o.request_id WHERE r.idempotency_key = ?', key);
    expect(queued.map((o) => o.kind).sort()).toEqual(['confirmation', 'desk']);

    // A later retry gets the same answer too; the same key on another body does not.
    const retry = await submit(server.url, 'ilve', simpleRequest(image1, image2), { 'Idempotency-Key': key });
    expect(await retry.json()).toEqual(bodies[0]);
    const other = await submit(server.url, 'ilve', { ...simpleRequest(image1, image2), city: 'Delft' }, { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
  });

  it('answers JSON errors for a malformed or oversized body', async () => {
    const malformed = await fetch(`${server.url}/api/forms/ilve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"last_name":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: expect.any(String) });
    const huge = await submit(server.url, 'ilve', { description: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
  });

  it('keeps photos out of every served path', async () => {
    const [name] = await storedPhotoNames(server);
    for (const path of [`/photos/${name}`, `/assets/../../data/photos/${name}`, `/data/photos/${name}`]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).not.toMatch(/image/);
    }
  });
});
