/**
 * The form posted without scripts, as a hostile or broken client sends it:
 * cut off anywhere, bytes flipped, boundaries that do not match, garbage,
 * odd part headers, fields over the limits. Against a real server: never a
 * 5xx, always an HTML page, nothing of the server's insides in it, and no
 * temp file left behind.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers';
import { INTERNALS, multipartOf, rawPost, sameOrigin, startNoScriptServer, twoPhotos, typedValues, type PhotoPart } from './no-script-support';

const BOUNDARY = '----formdata-fuzz-7MA4YWxkTrZu0gW';
let server: TestServer;
let photos: PhotoPart[];
let fields: [string, string][];
const statuses = new Map<number, number>();

beforeAll(async () => {
  server = await startNoScriptServer();
  photos = (await twoPhotos()).map(([control, bytes, name, type]) => [`root_${control}`, bytes, name, type]);
  fields = Object.entries(typedValues()).map(([name, value]): [string, string] => [`root_${name}`, String(value)]);
});

/** A complete, valid post as the browser sends it (text, photos, the hidden key last); a new key each case, so none is a replay. */
let posts = 0;
const valid = () => multipartOf(BOUNDARY, [...fields, ...photos, ['submission', `fuzz-${String(++posts).padStart(6, '0')}`]]);
afterAll(async () => {
  console.info(`no-script fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  await server.dispose();
});

const withType = (type: string | undefined) => ({ ...sameOrigin(server), ...(type === undefined ? {} : { 'content-type': type }) });

/** A body and the Content-Type it is sent with. */
interface Case {
  type: string | undefined;
  body: Buffer;
}

const typeFor = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

const truncated = fc.nat().map((cut): Case => {
  const body = valid();
  return { type: typeFor(BOUNDARY), body: body.subarray(0, cut % body.length) };
});

const flipped = fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 8 }).map((flips): Case => {
  const body = valid();
  for (const [at, byte] of flips) body[at % body.length] = byte;
  return { type: typeFor(BOUNDARY), body };
});

/** Boundaries a browser never sends: empty, quoted, overlong, with separators, or not the body's. */
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const boundary = fc.oneof(
  fc.string({ unit: printable, maxLength: 90 }),
  fc.constantFrom('', '""', '"unterminated', 'x'.repeat(200), 'a;b=c', BOUNDARY.slice(0, 10), `${BOUNDARY}x`),
);
const otherBoundary = boundary.map((b): Case => ({ type: `multipart/form-data; boundary=${b}`, body: valid() }));

const garbage = fc.tuple(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom(typeFor(BOUNDARY), 'multipart/form-data', undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/mixed; boundary=x'))
  .map(([bytes, type]): Case => ({ type, body: Buffer.from(bytes) }));

const oddHeaders = fc
  .array(fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 40 }), fc.string({ unit: 'binary-ascii', maxLength: 80 })), { minLength: 1, maxLength: 4 })
  .map((headers): Case => {
    const lines = headers.map(([name, value]) => `${name}: ${value}`).join('\r\n');
    const odd = Buffer.from(`--${BOUNDARY}\r\n${lines}\r\n\r\nvalue\r\n`);
    return { type: typeFor(BOUNDARY), body: Buffer.concat([odd, valid()]) };
  });

/** Over the reader's limits: a field of 70 kB, a hundred fields, three files, a file part without a name. */
const overLimits = () => fc.constantFrom<Case>(
  { type: typeFor(BOUNDARY), body: multipartOf(BOUNDARY, [...fields, ['root_description', 'x'.repeat(70 * 1024)]]) },
  { type: typeFor(BOUNDARY), body: multipartOf(BOUNDARY, Array.from({ length: 100 }, (_, i): [string, string] => [`root_f${i}`, 'v'])) },
  { type: typeFor(BOUNDARY), body: multipartOf(BOUNDARY, [...fields, ...photos, ['root_upload_3', photos[0][1], 'c.jpg', 'image/jpeg']]) },
  { type: typeFor(BOUNDARY), body: multipartOf(BOUNDARY, [...fields, ['', photos[0][1], 'a.jpg', 'image/jpeg']]) },
);

const anyCase = () => fc.oneof(
  { arbitrary: truncated, weight: 4 },
  { arbitrary: flipped, weight: 3 },
  { arbitrary: otherBoundary, weight: 1 },
  { arbitrary: garbage, weight: 1 },
  { arbitrary: oddHeaders, weight: 1 },
  { arbitrary: overLimits(), weight: 1 },
);

const tempFiles = () => readdirSync(join(server.dataDir, 'photos')).filter((f) => f.startsWith('.'));

describe('fuzz: the form without scripts, malformed', () => {
  it('answers every malformed body with a page, never a 5xx, and leaves no temp file', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(anyCase(), async ({ type, body }) => {
        const res = await rawPost(server, '/ilve/nl/nl', withType(type), body);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status !== 303) {
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(res.body).toMatch(/^<!doctype html>/i);
          expect(res.body).not.toMatch(INTERNALS);
        }
        expect(tempFiles()).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
