/**
 * A page on any other site can post a form to the portal in its visitor's
 * name. The server tells them apart as browsers allow: Origin (the portal's
 * own, or one configured), Fetch Metadata (Sec-Fetch-Site), and for browsers
 * that send neither a key bound to a SameSite=Strict cookie of the browser
 * that loaded the form. Real HTTP, as an attacker's page makes a browser send it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, jpegWithGps, uploadPhoto, type TestServer } from '../helpers';
import { formBody, multipartOf, postForm, rawPost, seedOf, startNoScriptServer, twoPhotos, typedValues } from './no-script-support';

const SHOP = 'https://shop.example.com';
const PUBLIC = 'https://portal.example.com';
let server: TestServer;

beforeAll(async () => {
  server = await startNoScriptServer({ CORS_ORIGINS: SHOP, PUBLIC_URL: PUBLIC });
});
afterAll(() => server.dispose());

let customers = 0;
const requestsWith = (email: string) => count(server, 'SELECT count(*) AS n FROM requests WHERE payload LIKE ?', [`%${email}%`]);

/** A complete, valid form of its own customer, posted with exactly these headers. */
async function send(headers: Record<string, string>, key: string = crypto.randomUUID()) {
  const email = `klant-${++customers}@example.com`;
  const res = await fetch(`${server.url}/ilve/nl/nl`, {
    method: 'POST',
    body: formBody(typedValues({ client_email: email }), await twoPhotos(), key),
    headers,
    redirect: 'manual',
  });
  return { res, email, key };
}

async function expectRefused({ res, email, key }: Awaited<ReturnType<typeof send>>, path = '/ilve/nl/nl') {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await res.text();
  const { url, seed } = seedOf(html);
  expect([url, seed.notice]).toEqual([path, { kind: 'cross-site' }]);
  // Nothing of what the other site sent is shown back or kept, and its key is not the form's.
  expect(seed.formData).toEqual({});
  expect(html).not.toContain(key);
  expect(await requestsWith(email)).toBe(0);
}

describe('cross-site posts of the form without scripts', () => {
  it('refuses a Host it does not serve (a rebound name: evil.example resolving to the portal) with 421, for posts and pages; nothing stored', async () => {
    const email = 'rebound@example.com';
    const fields = Object.entries(typedValues({ client_email: email })).map(([k, v]): [string, string] => [`root_${k}`, String(v)]);
    const payload = multipartOf('rebound', [...fields, ...(await twoPhotos()), ['submission', 'key-rebound']]);
    const evil = { host: 'evil.example', origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' };
    const post = await rawPost(server, '/ilve/nl/nl', { ...evil, 'content-type': 'multipart/form-data; boundary=rebound' }, payload);
    expect(post.status).toBe(421);
    expect(await requestsWith(email)).toBe(0);
    const page = await rawPost(server, '/api/forms/ilve', { host: 'evil.example', 'content-type': 'application/json' }, Buffer.from('{}'));
    expect(page.status).toBe(421);
    // The names it serves still pass: PUBLIC_URL's and loopback (the test speaks to 127.0.0.1).
    const own = await rawPost(server, '/api/forms/ilve', { host: 'portal.example.com', 'content-type': 'application/json' }, Buffer.from('{}'));
    expect(own.status).toBe(400);
  });

  it('refuses an Origin of another site, whatever Fetch Metadata says', async () => {
    await expectRefused(await send({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }));
    await expectRefused(await send({ origin: 'https://evil.example' }));
    await expectRefused(await send({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }));
    await expectRefused(await send({ origin: `${server.url}.evil.example` }));
  });

  it('refuses Sec-Fetch-Site cross-site or same-site without an Origin it knows (a sandboxed frame sends Origin: null)', async () => {
    await expectRefused(await send({ origin: 'null', 'sec-fetch-site': 'cross-site' }));
    await expectRefused(await send({ 'sec-fetch-site': 'cross-site' }));
    await expectRefused(await send({ origin: 'null', 'sec-fetch-site': 'same-site' }));
  });

  it('accepts the portal\'s own origin, PUBLIC_URL and CORS_ORIGINS, and a same-origin post with Origin: null', async () => {
    const accepted: Record<string, string>[] = [
      { origin: server.url, 'sec-fetch-site': 'same-origin' },
      { origin: server.url },
      { origin: PUBLIC, 'sec-fetch-site': 'same-site' },
      { origin: SHOP, 'sec-fetch-site': 'cross-site' },
      // What Chromium sends from a page whose Referrer-Policy is no-referrer.
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of accepted) {
      const { res, email } = await send(headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      expect(await requestsWith(email)).toBe(1);
    }
  });

  it('in a language of the route', async () => {
    const res = await postForm(server, '/ilve/fr/be', formBody(typedValues(), [], 'k'), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(seedOf(await res.text()).url).toBe('/ilve/fr/be');
  });
});

describe('browsers that send neither Origin nor Fetch Metadata', () => {
  /** An old browser loads the form: no Sec-Fetch-Site on its requests. */
  async function loadForm(cookie?: string) {
    const res = await fetch(`${server.url}/ilve/nl/nl`, { headers: cookie ? { cookie } : {} });
    const key = /name="submission" value="([^"]+)"/.exec(await res.text())?.[1] ?? '';
    const set = res.headers.get('set-cookie') ?? '';
    return { key, set, cookie: cookie ?? set.split(';')[0] };
  }

  it('get a SameSite=Strict form cookie with the page, and a key bound to it', async () => {
    const { key, set } = await loadForm();
    expect(set).toMatch(/^portal-form=[\w-]+;/);
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    expect(key).toMatch(/^[0-9a-f-]{36}\.[\w-]+$/);
    // A browser that sends Fetch Metadata needs none.
    const modern = await fetch(`${server.url}/ilve/nl/nl`, { headers: { 'sec-fetch-site': 'none' } });
    expect(modern.headers.get('set-cookie')).toBeNull();
  });

  it('post with that cookie and key: accepted; a made-up key, another browser\'s cookie or none: refused', async () => {
    const mine = await loadForm();
    const theirs = await loadForm();
    expect(mine.cookie).not.toBe(theirs.cookie);
    // The page loaded again in the same browser: same cookie, a key of its own.
    const again = await loadForm(mine.cookie);
    expect(again.set).toBe('');

    await expectRefused(await send({}, mine.key));
    await expectRefused(await send({ cookie: theirs.cookie }, mine.key));
    await expectRefused(await send({ cookie: mine.cookie }, `${crypto.randomUUID()}.forged`));
    await expectRefused(await send({ cookie: mine.cookie }, crypto.randomUUID()));

    const { res, email } = await send({ cookie: mine.cookie }, again.key);
    expect(res.status).toBe(303);
    expect(await requestsWith(email)).toBe(1);
  });
});

describe('photo uploads (a form can post them too)', () => {
  it('refuses another site\'s Origin or Sec-Fetch-Site cross-site, and accepts the page\'s own', async () => {
    const bytes = await jpegWithGps();
    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'a.jpg');
      return fetch(`${server.url}/api/forms/images`, { method: 'POST', body: form, headers: { accept: 'application/json', ...headers } });
    };
    const refused: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null', 'sec-fetch-site': 'cross-site' }];
    for (const headers of refused) {
      const res = await upload(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await upload({ origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await upload({ origin: SHOP, 'sec-fetch-site': 'cross-site' })).status).toBe(201);
    // The page's scripts in a browser that sends neither header: nothing to tell them apart by, so not refused.
    expect((await uploadPhoto(server.url, bytes)).status).toBe(201);
  });
});
