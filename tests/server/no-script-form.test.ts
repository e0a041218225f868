import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/forms/messages.json';
import { jpegWithGps, png, simpleRequest, startTestServer, storedPhotoNames, type TestServer } from './helpers';

/**
 * Stands in for the SSR build (dist/web/ssr): renders the seed it is given, so
 * the tests read exactly what the route decided. The real render is covered
 * by tests/e2e/no-script.spec.ts.
 */
const SSR_STANDIN = 'export async function render(url, seed) { return { html: `<form><input type="hidden" name="submission" value=""/></form><pre id="seed">${JSON.stringify({ url, seed })}</pre>` }; }\n';
const PAGE = '<!doctype html><html lang="nl"><head><title>Ilve</title></head><body><div id="root"><form><input type="hidden" name="submission" value=""/></form></div></body></html>';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({}, { 'ssr/entry-server.js': SSR_STANDIN, 'pages/ilve/nl/nl.html': PAGE });
});
afterAll(() => server.dispose());

interface Seed {
  url: string;
  seed: { brandId: string; formData: Record<string, unknown>; errors: Record<string, string[]> };
}

function seedOf(html: string): Seed {
  const json = /<pre id="seed">(.*)<\/pre>/s.exec(html)?.[1];
  if (!json) throw new Error(`no seed in ${html.slice(0, 300)}`);
  return JSON.parse(json) as Seed;
}

/** The simple form as a browser posts it: root_<field> text parts, then the photo pickers. */
function form(values: Record<string, unknown>, photos: [string, Buffer, string, string][] = [], key = 'key-1'): FormData {
  const body = new FormData();
  body.append('submission', key);
  for (const [name, value] of Object.entries(values)) body.append(`root_${name}`, String(value));
  for (const [name, bytes, filename, type] of photos) body.append(`root_${name}`, new Blob([new Uint8Array(bytes)], { type }), filename);
  return body;
}

const post = (path: string, body: FormData, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', body, headers, redirect: 'manual' });

const storedPhotos = () => storedPhotoNames(server);

describe('POST /:brand/:locale/:country (the form without scripts)', () => {
  it('judges a non-image photo by its content, as uploads are, and keeps the typed values and the good photo', async () => {
    const { image1: _a, image2: _b, ...values } = simpleRequest('', '');
    const before = (await storedPhotos()).length;
    const res = await post(
      '/ilve/nl/nl',
      form(values, [
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
    expect(seed.errors).toEqual({ upload_2: [messages.simple.nl['fileRules.types']] });
    expect(seed.formData).toMatchObject({ last_name: 'Jansen', house_number: 12, upload_1: { name: 'plaatje.jpg', type: 'image/jpeg' } });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(seed.formData).not.toHaveProperty('image2');
    // The good photo is stored (to be sent with the corrected form); nothing of the bad one is left.
    expect((await storedPhotos()).length).toBe(before + 1);
  });

  it('says a photo over 32 MB is too large, keeps the typed values and the good photo, and leaves nothing of the big one', { timeout: 60_000 }, async () => {
    const { image1: _a, image2: _b, ...values } = simpleRequest('', '');
    const before = await storedPhotos();
    // A JPEG's first bytes, then 33 MB: what a camera's raw export or a renamed video looks like to the server.
    const huge = Buffer.concat([await jpegWithGps(), Buffer.alloc(33 * 1024 * 1024, 0xab)]);
    const res = await post(
      '/ilve/nl/nl',
      form(values, [
        ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
        ['upload_2', huge, 'bon.jpg', 'image/jpeg'],
      ]),
    );
    expect(res.status).toBe(400);
    const { seed } = seedOf(await res.text());
    expect(seed.errors).toEqual({ upload_2: [messages.simple.nl['fileRules.maxBytes']] });
    expect(seed.formData).toMatchObject({ last_name: 'Jansen', description: values.description, upload_2: { name: 'bon.jpg' } });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(seed.formData).not.toHaveProperty('image2');
    const after = await storedPhotos();
    expect(after.filter((name) => !before.includes(name))).toEqual([seed.formData.image1]);
    // Nothing of the cut-off upload stays in the folder uploads arrive in.
    expect(readdirSync(join(server.dataDir, 'photos')).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    // The whole body was read: the browser goes on to send the corrected form (it once hung here).
    const corrected = await post('/ilve/nl/nl', form(values, [['upload_1', await jpegWithGps(), 'a.jpg', 'image/jpeg'], ['upload_2', await png(), 'b.png', 'image/png']], 'key-big'), {});
    expect(corrected.status).toBe(303);
  });

  it('an empty picker is no photo; empty fields say the variant\'s required message', async () => {
    const res = await post('/ilve/nl/nl', form({ last_name: 'Jansen', house_number: '' }, [['upload_1', Buffer.alloc(0), '', 'application/octet-stream']]));
    expect(res.status).toBe(400);
    const { seed } = seedOf(await res.text());
    const required = messages.simple.nl.required;
    expect(seed.errors.upload_1).toEqual([required]);
    expect(seed.errors.house_number).toEqual([required]);
    expect(seed.errors).not.toHaveProperty('last_name');
  });

  it('stores a complete form once, answers 303 to the page, and the page confirms with the address', async () => {
    const values = { ...simpleRequest('', ''), client_email: 'zonder-script@example.com' };
    delete (values as Record<string, unknown>).image1;
    delete (values as Record<string, unknown>).image2;
    const photos: [string, Buffer, string, string][] = [
      ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
      ['upload_2', await png(), 'bon.png', 'image/png'],
    ];
    const first = await post('/ilve/nl/nl', form(values, photos, 'key-2'));
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/ilve/nl/nl');
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^portal-sent-ilve=/);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    const again = await post('/ilve/nl/nl', form(values, photos, 'key-2'));
    expect([again.status, again.headers.get('set-cookie')?.split(';')[0]]).toEqual([303, cookie]);

    const page = await fetch(`${server.url}/ilve/nl/nl`, { headers: { cookie } });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(seedOf(await page.text()).seed).toMatchObject({ brandId: 'ilve', sentTo: 'zonder-script@example.com' });
    // Without the cookie, the page is the form with a fresh key.
    const fresh = await (await fetch(`${server.url}/ilve/nl/nl`)).text();
    expect(fresh).toMatch(/name="submission" value="[0-9a-f-]{36}"/);
  });

  it('refuses what is not a form post, and unknown pages', async () => {
    expect((await fetch(`${server.url}/ilve/nl/nl`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await post('/miele/nl/nl', form({}))).status).toBe(404);
  });
});
