import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as messagesOf } from '../../support/portal-data';

const simple = messagesOf('simple', 'nl');
import { confirmationSeals } from '../../../src/server/no-script/sent-requests';
import { photoLinkSecret } from '../../../src/server/photos/photo-links';
import { jpegWithGps, png, storedPhotoNames, type TestServer } from '../helpers';
import { formBody, postForm, seedOf, startNoScriptServer, twoPhotos, typedValues } from './no-script-support';

let server: TestServer;

beforeAll(async () => {
  server = await startNoScriptServer();
});
afterAll(() => server.dispose());

const post = (path: string, body: FormData, headers: Record<string, string> = {}) => postForm(server, path, body, headers);
const storedPhotos = () => storedPhotoNames(server);
const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0];
/** The page as a current browser asks for it (it sends Fetch Metadata, so its form key needs no cookie). */
const page = (cookie: string) => fetch(`${server.url}/ilve/nl/nl`, { headers: { cookie, 'sec-fetch-site': 'same-origin' } });

describe('POST /:brand/:locale/:country (the form without scripts)', () => {
  it('judges a non-image photo by its content, as uploads are, and keeps the typed values and the good photo', async () => {
    const values = typedValues();
    const before = (await storedPhotos()).length;
    const res = await post(
      '/ilve/nl/nl',
      formBody(values, [
        ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
        ['upload_2', Buffer.from('<html>not a photo</html>'), 'bon.png', 'image/png'],
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('name="submission" value="key-1"');
    const { url, seed } = seedOf(html);
    expect(url).toBe('/ilve/nl/nl');
    expect(seed.errors).toEqual({ upload_2: [simple('fileRules.types')] });
    expect(seed.formData).toMatchObject({ last_name: 'Jansen', house_number: 12, upload_1: { name: 'plaatje.jpg', type: 'image/jpeg' } });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(seed.formData).not.toHaveProperty('image2');
    // The good photo is stored (to be sent with the corrected form); nothing of the bad one is left.
    expect((await storedPhotos()).length).toBe(before + 1);
  });

  it('says a photo over 32 MB is too large, keeps the typed values and the good photo, and leaves nothing of the big one', { timeout: 60_000 }, async () => {
    const values = typedValues();
    const before = await storedPhotos();
    // A JPEG's first bytes, then 33 MB: what a camera's raw export or a renamed video looks like to the server.
    const huge = Buffer.concat([await jpegWithGps(), Buffer.alloc(33 * 1024 * 1024, 0xab)]);
    const res = await post(
      '/ilve/nl/nl',
      formBody(values, [
        ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
        ['upload_2', huge, 'bon.jpg', 'image/jpeg'],
      ]),
    );
    expect(res.status).toBe(400);
    const { seed } = seedOf(await res.text());
    expect(seed.errors).toEqual({ upload_2: [simple('fileRules.maxBytes')] });
    expect(seed.formData).toMatchObject({ last_name: 'Jansen', description: values.description, upload_2: { name: 'bon.jpg' } });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(seed.formData).not.toHaveProperty('image2');
    const after = await storedPhotos();
    expect(after.filter((name) => !before.includes(name))).toEqual([seed.formData.image1]);
    // Nothing of the cut-off upload stays in the folder uploads arrive in.
    expect(readdirSync(join(server.dataDir, 'photos')).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    // The whole body was read: the browser goes on to send the corrected form (it once hung here).
    const corrected = await post('/ilve/nl/nl', formBody(values, [['upload_1', await jpegWithGps(), 'a.jpg', 'image/jpeg'], ['upload_2', await png(), 'b.png', 'image/png']], 'key-big'));
    expect(corrected.status).toBe(303);
  });

  it('an empty picker is no photo; empty fields say the variant\'s required message', async () => {
    const res = await post('/ilve/nl/nl', formBody({ last_name: 'Jansen', house_number: '' }, [['upload_1', Buffer.alloc(0), '', 'application/octet-stream']]));
    expect(res.status).toBe(400);
    const { seed } = seedOf(await res.text());
    const required = simple('required');
    expect(seed.errors.upload_1).toEqual([required]);
    expect(seed.errors.house_number).toEqual([required]);
    expect(seed.errors).not.toHaveProperty('last_name');
  });

  it('stores a complete form once, answers 303 to the page, and the page confirms with the address', async () => {
    const values = typedValues({ client_email: 'zonder-script@example.com' });
    const photos = await twoPhotos();
    const first = await post('/ilve/nl/nl', formBody(values, photos, 'key-2'));
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/ilve/nl/nl');
    expect(cookieOf(first)).toMatch(/^portal-sent-ilve=/);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    // A double click or a resend: the same key with the same content is the same request, confirmed again.
    const again = await post('/ilve/nl/nl', formBody(values, photos, 'key-2'));
    expect(again.status).toBe(303);
    expect(cookieOf(again)).toMatch(/^portal-sent-ilve=/);

    const confirmed = await page(cookieOf(again));
    expect(confirmed.headers.get('cache-control')).toBe('no-store');
    const [{ reference }] = await server.sql.all<{ reference: string }>('SELECT reference FROM requests WHERE payload LIKE ?', ['%zonder-script@example.com%']);
    expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
    const html = await confirmed.text();
    expect(seedOf(html).seed).toMatchObject({ brandId: 'ilve', sentTo: 'zonder-script@example.com', reference });
    // Without the cookie, the page is the form with a fresh key.
    const fresh = await (await page('')).text();
    expect(fresh).toMatch(/name="submission" value="[0-9a-f-]{36}"/);
  });

  it('refuses what is not a form post, and unknown pages, with a page', async () => {
    const plain = await fetch(`${server.url}/ilve/nl/nl`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain', origin: server.url } });
    expect(plain.status).toBe(415);
    expect(plain.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const unknown = await post('/miele/nl/nl', formBody({}));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('404 - Pagina niet gevonden');
  });
});

describe('the same submission key with other content', () => {
  it('is not stored: the page says the request was sent already, with its reference, and keeps the new text under a new key', async () => {
    const photos = await twoPhotos();
    const first = await post('/ilve/nl/nl', formBody(typedValues({ client_email: 'eerste@example.com' }), photos, 'key-other'));
    expect(first.status).toBe(303);
    const [{ reference }] = await server.sql.all<{ reference: string }>('SELECT reference FROM requests WHERE idempotency_key = ?', ['key-other']);

    const changed = await post('/ilve/nl/nl', formBody(typedValues({ client_email: 'eerste@example.com', description: 'Nu ook de kookplaat.' }), photos, 'key-other'));
    expect(changed.status).toBe(409);
    expect(changed.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(changed.headers.get('set-cookie')).toBeNull();
    const html = await changed.text();
    const { seed } = seedOf(html);
    expect(seed.notice).toEqual({ kind: 'already-sent', reference });
    expect(seed.formData).toMatchObject({ description: 'Nu ook de kookplaat.' });
    // Sending it again on purpose makes it a new request, not the first one's key again.
    expect(html).toMatch(/name="submission" value="[0-9a-f-]{36}"/);
    const rows = await server.sql.all<{ payload: string }>('SELECT payload FROM requests WHERE idempotency_key = ?', ['key-other']);
    expect(rows.map((r) => (JSON.parse(r.payload) as { description: string }).description)).toEqual([typedValues().description]);
  });

  it('sent twice at once with other content: one is stored, the other gets the page saying so', async () => {
    const photos = await twoPhotos();
    const answers = await Promise.all(
      ['Eerste versie.', 'Tweede versie.'].map((description) => post('/ilve/nl/nl', formBody(typedValues({ description }), photos, 'key-race'))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    expect(await server.sql.all('SELECT reference FROM requests WHERE idempotency_key = ?', ['key-race'])).toHaveLength(1);
  });
});

describe('the confirmation cookie', () => {
  it('holds neither the reference nor the address, is short-lived, and a forged or expired one shows the form', async () => {
    const res = await post('/ilve/nl/nl', formBody(typedValues({ client_email: 'cookie@example.com' }), await twoPhotos(), 'key-cookie'));
    expect(res.status).toBe(303);
    const [{ reference }] = await server.sql.all<{ reference: string }>('SELECT reference FROM requests WHERE idempotency_key = ?', ['key-cookie']);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=1800/i);
    const value = decodeURIComponent(cookieOf(res).split('=').slice(1).join('='));
    expect(value).not.toContain(reference);
    expect(value).not.toContain(reference.replace(/-/g, ''));
    expect(Buffer.from(value, 'base64url').toString('latin1')).not.toContain('cookie@example.com');

    // Whoever knows a reference cannot make the page show its address.
    const forged = await (await page(`portal-sent-ilve=${reference}`)).text();
    expect(forged).not.toContain('cookie@example.com');
    expect(forged).toMatch(/name="submission" value="[0-9a-f-]{36}"/);
    // One changed character of a genuine cookie is a forgery too.
    const flipped = value.slice(0, 10) + (value[10] === 'A' ? 'B' : 'A') + value.slice(11);
    expect(await (await page(`portal-sent-ilve=${flipped}`)).text()).not.toContain('cookie@example.com');
    // Another brand's pages do not accept it.
    const other = await fetch(`${server.url}/ilve/fr/be`, { headers: { cookie: `portal-sent-teka=${value}`, 'sec-fetch-site': 'same-origin' } });
    expect(await other.text()).not.toContain('cookie@example.com');

    // Sealed with the server's own key: current, the confirmation; past its time, the form.
    const seals = confirmationSeals(photoLinkSecret(server.config.photoUrlSecret, server.dataDir));
    expect(await (await page(`portal-sent-ilve=${seals.seal(reference, 'ilve', Date.now() + 60_000)}`)).text()).toContain('cookie@example.com');
    const expired = await (await page(`portal-sent-ilve=${seals.seal(reference, 'ilve', Date.now() - 1000)}`)).text();
    expect(expired).not.toContain('cookie@example.com');
    expect(expired).toMatch(/name="submission" value="[0-9a-f-]{36}"/);
  });
});
