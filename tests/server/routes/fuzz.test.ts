import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { anyText } from '../../support/any-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, count, extendedRequest, injectUpload, jpegWithGps, multipartBody, png, simpleRequest, type TestServer } from '../helpers';

let server: TestServer;
let photos: string[];
let jpeg: Buffer;
let pngBytes: Buffer;

beforeAll(async () => {
  server = await buildTestApp();
  photos = [];
  for (let i = 0; i < 6; i++) photos.push(await injectUpload(server.app, await png(8, 8)));
  jpeg = await jpegWithGps(16, 16);
  pngBytes = await png(16, 16);
});
afterAll(async () => {
  await server.dispose();
});

const rows = (table: string) => count(server, `SELECT count(*) AS n FROM ${table}`);
const stored = async () => ({
  requests: await rows('requests'),
  outbox: await rows('outbox'),
  photos: await rows('photos'),
  files: readdirSync(join(server.dataDir, 'photos')).length,
});

/** Text an attacker sends: any UTF-16 (lone surrogates too), control characters, formulas, huge or blank. */
const hostileText = fc.oneof(
  anyText({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u0000', '\u00a0', '\ud800', '=', '+', '-', '@', 'a'), maxLength: 12 }),
  fc.constantFrom('', ' ', '=cmd|x', '../../etc/passwd', '<script>', 'constructor', '__proto__', 'x'.repeat(9000)),
);
const hostileValue = fc.oneof(hostileText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));
const fieldName = fc.oneof(
  fc.constantFrom('last_name', 'brand', 'description', 'house_number', 'client_email', 'notification', 'image1', 'image2', 'upload_1', 'isAkkoord', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'),
  fc.string({ maxLength: 10 }),
);
/** A valid request of either form with some fields replaced, removed or added. */
const mutatedRequest = fc
  .record({
    extended: fc.boolean(),
    images: fc.tuple(fc.constantFrom(...[0, 1, 2, 3, 4, 5]), fc.constantFrom(...[0, 1, 2, 3, 4, 5])),
    changes: fc.array(fc.tuple(fieldName, fc.option(hostileValue, { nil: undefined })), { maxLength: 4 }),
  })
  .map(({ extended, images: [a, b], changes }) => {
    const base = (extended ? extendedRequest : simpleRequest)(photos[a], photos[b]);
    for (const [name, value] of changes) {
      if (value === undefined) delete base[name];
      else Object.defineProperty(base, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return JSON.stringify(base);
  });
const body = fc.oneof(mutatedRequest, fc.json({ maxDepth: 3 }), anyText({ maxLength: 200 }));
const brandId = fc.oneof(fc.constantFrom('kuppersbusch', 'teka', 'ilve', 'hanant', 'airodesign', 'fratelli', 'miele', 'constructor', '__proto__'), fc.string({ maxLength: 20 }));

describe('fuzz: hostile bodies never cause a 5xx, and a refused request stores nothing', () => {
  it('JSON submits', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(brandId, body, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'), async (brand, payload, type) => {
        const before = await stored();
        const res = await server.app.inject({ method: 'POST', url: `/api/forms/${encodeURIComponent(brand)}`, headers: { 'content-type': type }, payload });
        expect(res.statusCode).toBeLessThan(500);
        expect(Object.keys(res.json())).toContain(res.statusCode === 201 ? 'reference' : 'error');
        if (res.statusCode !== 201) expect(await stored()).toEqual(before);
      }),
      { numRuns: 2500, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: false },
    );
  });

  it('multipart uploads', { timeout: 120_000 }, async () => {
    const boundary = 'fuzzboundary';
    const payload = fc.oneof(
      // A real photo cut, padded or corrupted somewhere.
      fc.record({ cut: fc.nat(), flip: fc.nat(), byte: fc.nat(255), png: fc.boolean() }).map(({ cut, flip, byte, png: isPng }) => {
        const photo = Buffer.from(isPng ? pngBytes : jpeg);
        photo[flip % photo.length] = byte;
        const body = multipartBody(photo, { boundary, type: isPng ? 'image/png' : 'image/jpeg' }).payload;
        return body.subarray(0, body.length - (cut % body.length));
      }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => multipartBody(Buffer.from(bytes), { boundary }).payload),
      anyText({ maxLength: 300 }).map((text) => Buffer.from(text)),
      fc.tuple(fc.constantFrom('image', 'file', ''), fc.string({ maxLength: 20 })).map(([field, name]) => multipartBody(jpeg, { boundary, field, name }).payload),
    );
    const contentType = fc.constantFrom(`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', 'multipart/form-data; boundary=other', 'multipart/mixed; boundary=fuzzboundary');
    await fc.assert(
      fc.asyncProperty(payload, contentType, async (bytes, type) => {
        const before = await stored();
        const res = await server.app.inject({ method: 'POST', url: '/api/forms/images', headers: { 'content-type': type }, payload: bytes });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode !== 201) expect(await stored()).toEqual(before);
      }),
      { numRuns: 1000, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: false },
    );
  });
});
