/**
 * A browser without scripts shows whatever the server answers: every refusal
 * of the form posted without scripts is a page in the page's language (the
 * brand page with a notice), with what the customer typed kept where the
 * body could be read. The JSON API keeps its JSON.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../../support/backend';
import type { TestServer } from '../helpers';
import { INTERNALS, formBody, multipartOf, postForm, rawPost, sameOrigin, seedOf, startNoScriptServer, twoPhotos, typedValues } from './no-script-support';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function expectPage(res: Response, status: number, kind: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const html = await res.text();
  expect(html).not.toMatch(INTERNALS);
  const shown = seedOf(html);
  expect(shown.seed.notice?.kind).toBe(kind);
  return { html, ...shown };
}

describe('pages for every refusal of the form without scripts', () => {
  it('a body cut off mid-way: 400, in the route\'s language, with the fields read before the cut kept', async () => {
    server = await startNoScriptServer();
    const boundary = '----cut';
    const body = multipartOf(boundary, [
      ['root_last_name', 'Dubois'],
      ['root_city', 'Liège'],
      ['root_upload_1', Buffer.alloc(5000, 1), 'a.jpg', 'image/jpeg'],
      ['submission', 'key-cut'],
    ]);
    const cut = body.subarray(0, body.indexOf('root_upload_1') + 200);
    const res = await rawPost(server, '/ilve/fr/be', { ...sameOrigin(server), 'content-type': `multipart/form-data; boundary=${boundary}` }, cut);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/<html lang="fr"/);
    expect(res.body).not.toMatch(INTERNALS);
    const { url, seed } = seedOf(res.body);
    expect(url).toBe('/ilve/fr/be');
    expect(seed.notice).toEqual({ kind: 'unreadable' });
    expect(seed.formData).toMatchObject({ last_name: 'Dubois', city: 'Liège' });
    expect(seed.errors).toEqual({});
  });

  it('not multipart (415) and too many parts (413): pages, not JSON', async () => {
    server = await startNoScriptServer();
    const plain = await fetch(`${server.url}/ilve/nl/nl`, { method: 'POST', body: 'naam=x', headers: { ...sameOrigin(server), 'content-type': 'text/plain' } });
    await expectPage(plain, 415, 'unreadable');
    const many = new FormData();
    for (let i = 0; i < 80; i++) many.append(`root_x${i}`, 'v');
    await expectPage(await postForm(server, '/ilve/nl/nl', many), 413, 'too-large');
  });

  it('a server fault (500) keeps the typed values', async () => {
    server = await startNoScriptServer();
    // Where uploads arrive is a file, not a folder: every write of a photo fails, as a broken disk would.
    const photos = join(server.dataDir, 'photos');
    renameSync(photos, `${photos}.away`);
    writeFileSync(photos, '');
    try {
      const { seed } = await expectPage(await postForm(server, '/ilve/nl/nl', formBody(typedValues(), await twoPhotos(), 'key-500')), 500, 'failed');
      expect(seed.formData).toMatchObject({ last_name: 'Jansen', description: typedValues().description });
    } finally {
      rmSync(photos);
      renameSync(`${photos}.away`, photos);
    }
  });

  it('no room for photos (503, before the body is read): a page with Retry-After', async () => {
    server = await startNoScriptServer({ MIN_FREE_DISK_MB: String(1024 * 1024 * 1024) });
    const res = await postForm(server, '/ilve/fr/be', formBody(typedValues(), await twoPhotos(), 'key-room'));
    const { url } = await expectPage(res, 503, 'unavailable');
    expect(url).toBe('/ilve/fr/be');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it.runIf(BACKEND === 'sqlite')('storage gone once the form is read (503): the typed values and photos kept, and the same key for the retry', async () => {
    server = await startNoScriptServer();
    await (server.app.requestStore as unknown as { writer: { thread: Worker } }).writer.thread.terminate();
    const res = await postForm(server, '/ilve/nl/nl', formBody(typedValues(), await twoPhotos(), 'key-503'));
    const { html, seed } = await expectPage(res, 503, 'unavailable');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(seed.formData).toMatchObject({ last_name: 'Jansen', upload_1: { name: 'plaatje.jpg' } });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(seed.formData.image2).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(html).toContain('name="submission" value="key-503"');
  });

  it('the JSON API keeps its JSON', async () => {
    server = await startNoScriptServer();
    const res = await fetch(`${server.url}/api/forms/ilve`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  });
});
