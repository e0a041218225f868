import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largePatternPng } from '../../fixtures/photos';
import { buildTestApp, jpegWithGps, multipartBody, type TestServer } from '../helpers';

let server: TestServer;

beforeAll(async () => {
  server = await buildTestApp({ PHOTO_DECODE_PER_CLIENT: '4' });
});
afterAll(() => server.dispose());

function upload(bytes: Buffer, type: string, remoteAddress: string) {
  return server.app.inject({ method: 'POST', url: '/api/forms/images', remoteAddress, ...multipartBody(bytes, { type, name: 'x' }) });
}

describe('fair, bounded photo decoding', () => {
  it('finishes a small upload within 2 s while another client floods large PNGs', { timeout: 120_000 }, async () => {
    const big = await largePatternPng();
    const flood = Array.from({ length: 12 }, () => upload(big, 'image/png', '10.0.0.1'));
    // The first refusal: the flooding client holds its full share (4) of decoding, running or waiting.
    await Promise.any(flood.map((r) => r.then((res) => (res.statusCode === 503 ? res : Promise.reject(new Error('not refused'))))));

    const started = Date.now();
    const small = await upload(await jpegWithGps(), 'image/jpeg', '192.0.2.7');
    const elapsed = Date.now() - started;
    expect(small.statusCode).toBe(201);
    expect(elapsed).toBeLessThan(2000);

    // The flooding client keeps its share (4 at a time); the rest is refused at once, to retry later.
    const results = await Promise.all(flood);
    const stored = results.filter((r) => r.statusCode === 201);
    // The turn-taking itself is proven step by step in fair-queue.test.ts, without timing.
    const refused = results.filter((r) => r.statusCode === 503);
    expect(stored.length + refused.length).toBe(12);
    expect(stored.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0].headers['retry-after']).toBe('5');
    expect(refused[0].json()).toEqual({ error: expect.stringContaining('try again') });
  });

  it('refuses 16-bit PNGs and PNGs over the pixel budget before decoding them', async () => {
    const deep = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#777' } }).toColourspace('rgb16').png().toBuffer();
    const res = await upload(deep, 'image/png', '10.1.1.1');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/8 bits/);
    const wide = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#777' } }).png().toBuffer();
    const over = await upload(wide, 'image/png', '10.1.1.1');
    expect(over.statusCode).toBe(415);
  });

  it('stores a large phone photo (27 MP JPEG)', async () => {
    const photo = await sharp({ create: { width: 6000, height: 4500, channels: 3, background: '#3a6' } }).jpeg().toBuffer();
    const res = await upload(photo, 'image/jpeg', '10.2.2.2');
    expect(res.statusCode).toBe(201);
  });
});
