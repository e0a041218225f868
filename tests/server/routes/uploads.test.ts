import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithGps, png, startTestServer, storedPhoto, storedPhotoNames, uploadPhoto, type TestServer } from '../helpers';

const MB = 1024 * 1024;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

/** Stored photos and files left in the folder (temp files of refused uploads must not stay). */
const photoFiles = async () => [...new Set([...(await storedPhotoNames(server)), ...readdirSync(join(server.dataDir, 'photos'))])];

/** Raw multipart POST with node:http, so the test controls length headers and pacing. */
function postRaw(
  headers: Record<string, string | number>,
  write: (req: ReturnType<typeof request>) => void,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: '/api/forms/images', method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    // The server closes the connection mid-body on refusal, so writing may fail (EPIPE) just
    // before the answer is read: only an error with no answer soon after is a failure.
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (error) => setTimeout(() => answered || reject(error), 1000));
    write(req);
  });
}

const BOUNDARY = 'testboundary42';
const partHead = (field: string, name: string, type: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;

describe('POST /api/forms/images', () => {
  it('stores a JPEG re-encoded: EXIF and GPS gone, orientation applied', async () => {
    const original = await jpegWithGps(64, 48);
    const before = await sharp(original).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);
    const res = await uploadPhoto(server.url, original);
    expect(res.status).toBe(201);
    const { filename } = (await res.json()) as { filename: string };
    expect(filename).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    const stored = await storedPhoto(server, filename);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from('TestPhone'))).toBe(false);
    // Orientation 6 (rotate 90°) is baked into the pixels.
    expect([meta.width, meta.height]).toEqual([48, 64]);
  });

  it('stores a PNG as .png', async () => {
    const res = await uploadPhoto(server.url, await png(), 'scan.png', 'image/png');
    expect(res.status).toBe(201);
    expect(((await res.json()) as { filename: string }).filename).toMatch(/\.png$/);
  });

  it('refuses HTML named .png with 415, whatever the declared type', async () => {
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
    const res = await uploadPhoto(server.url, html, 'photo.png', 'image/png');
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it('refuses a PNG header followed by garbage with 415 (decoding fails)', async () => {
    const good = await png();
    const broken = Buffer.concat([good.subarray(0, 40), Buffer.alloc(2000, 7)]);
    expect((await uploadPhoto(server.url, broken, 'x.png', 'image/png')).status).toBe(415);
  });

  it('refuses an extra part with 400', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    form.append('comment', 'hello');
    const res = await fetch(`${server.url}/api/forms/images`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
  });

  it('refuses a second file with 400', async () => {
    const form = new FormData();
    const bytes = new Uint8Array(await png());
    form.append('image', new Blob([bytes], { type: 'image/png' }), 'a.png');
    form.append('image', new Blob([bytes], { type: 'image/png' }), 'b.png');
    expect((await fetch(`${server.url}/api/forms/images`, { method: 'POST', body: form })).status).toBe(400);
  });

  it('refuses a form without a file, or with the file in another field, with 400', async () => {
    const empty = await fetch(`${server.url}/api/forms/images`, { method: 'POST', body: new FormData() });
    expect(empty.status).toBe(400);
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    expect((await fetch(`${server.url}/api/forms/images`, { method: 'POST', body: form })).status).toBe(400);
  });

  it('refuses a declared Content-Length over 32 MB before reading the body', async () => {
    const before = (await photoFiles()).length;
    const res = await postRaw(
      { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': 33 * MB },
      (req) => req.write(partHead('image', 'big.jpg', 'image/jpeg')),
    );
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringContaining('32 MB') });
    expect((await photoFiles()).length).toBe(before);
  });

  it('refuses a streamed upload as soon as it passes 32 MB and leaves no partial file', async () => {
    const before = (await photoFiles()).length;
    let sent = 0;
    let refused = false;
    const chunk = Buffer.alloc(MB, 0xff);
    const res = await postRaw({ 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, (req) => {
      req.write(partHead('image', 'big.jpg', 'image/jpeg'));
      req.on('response', () => (refused = true));
      const pump = () => {
        // Keep sending (up to 64 MB) until the server answers.
        while (!refused && sent < 64 * MB) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!refused) req.end(`\r\n--${BOUNDARY}--\r\n`);
      };
      pump();
    });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(48 * MB);
    expect((await photoFiles()).length).toBe(before);
    expect((await photoFiles()).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('refuses a request that is not multipart with 415', async () => {
    const res = await fetch(`${server.url}/api/forms/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(415);
  });
});
