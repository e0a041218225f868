/**
 * No stranger decides whose photos go. An attacker spreads uploads over many
 * networks (IPv6 /56s inside one /48, as one site holds them; IPv4 /24s of a
 * botnet) while a customer's form is open with two photos stored: the
 * customer's submit within 30 minutes is stored, and when room runs out the
 * uploads are refused, in the uploader's language, with Retry-After, instead
 * of removing anyone's recent photos.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { text } from '../../../src/core/texts';
import { portal } from '../../support/portal-data';
import { buildTestApp, count, injectSubmit, injectUpload, multipartBody, simpleRequest, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** A photo whose re-encoded file keeps about its size (noise does not compress). */
function noisyJpeg(side: number): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** Quotas as the report's test set them, in proportion: a small total, a network's share under it. */
const QUOTAS = { PHOTO_QUOTA_TOTAL_MB: '8', PHOTO_QUOTA_PER_NETWORK_MB: '3', PHOTO_QUOTA_PER_PROVIDER_MB: '6' };

/** The customer's two photos (each about three of the attacker's), stored first: their form is open. */
async function customerOpensForm(s: TestServer, address: string): Promise<[string, string]> {
  const photo = await noisyJpeg(1500);
  return [await injectUpload(s.app, photo, 'image/jpeg', address), await injectUpload(s.app, photo, 'image/jpeg', address)];
}

/** Uploads from each address in turn; the answers by status, and the refusals. */
async function flood(s: TestServer, addresses: string[], headers: Record<string, string> = {}) {
  const photo = await noisyJpeg(900);
  const statuses: Record<number, number> = {};
  const refusals = [];
  for (const remoteAddress of addresses) {
    const body = multipartBody(photo);
    const res = await s.app.inject({ method: 'POST', url: '/api/forms/images', remoteAddress, headers: { ...body.headers, ...headers }, payload: body.payload });
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode !== 201) refusals.push(res);
  }
  return { statuses, refusals };
}

/** The texts a refusal may say, in a language: over a share of the uploader's networks, or no room at all. */
function refusalTexts(locale: string): RegExp {
  const fixed = (key: string) => text(portal.languages, locale, key, { minutes: '§' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('§', '\\d+');
  return new RegExp(`^(${fixed('upload.overShare')}|${fixed('upload.noRoom')})$`);
}

/**
 * What the attack met: each refusal 503 with Retry-After, said in `locale`; no photo removed (the store holds
 * the customer's two and every one accepted); and the customer's request, sent now, stored.
 */
async function expectAttackRefused(s: TestServer, { statuses, refusals }: Awaited<ReturnType<typeof flood>>, locale: string, mine: [string, string]) {
  for (const refusal of refusals) {
    expect(refusal.statusCode).toBe(503);
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
    expect((refusal.json() as { error: string }).error).toMatch(refusalTexts(locale));
  }
  expect(await count(s, 'SELECT count(*) AS n FROM photos')).toBe(2 + (statuses[201] ?? 0));
  expect((await injectSubmit(s.app, 'ilve', simpleRequest(mine[0], mine[1]))).statusCode).toBe(201);
}

describe("a spread upload attack against a customer's open form", { timeout: 180_000 }, () => {
  it('28 networks inside one /48: the customer is stored, the attack refused (503, Retry-After, the uploader\'s language), nothing evicted', async () => {
    server = await buildTestApp(QUOTAS);
    const s = server;
    const mine = await customerOpensForm(s, '2001:db8:ffff:1::10');
    // Each upload from another /56 of one /48, in French.
    const addresses = Array.from({ length: 28 }, (_, i) => `2001:db8:1:${(i + 1).toString(16)}00::1`);
    const { statuses, refusals } = await flood(s, addresses, { 'x-portal-locale': 'fr' });
    console.log(`[measure] 28 /56s of one /48 against two photos, total 8 MB: answers ${JSON.stringify(statuses)}`);
    expect(refusals.length).toBeGreaterThan(0);
    await expectAttackRefused(s, { statuses, refusals }, 'fr', mine);
  });

  it('300 IPv4 /24s: the customer is stored, the attack refused in Dutch without a language asked for, nothing evicted', async () => {
    server = await buildTestApp(QUOTAS);
    const s = server;
    const mine = await customerOpensForm(s, '192.0.2.10');
    const addresses = Array.from({ length: 300 }, (_, k) => `10.${k >> 8}.${k & 255}.1`);
    const { statuses, refusals } = await flood(s, addresses);
    console.log(`[measure] 300 IPv4 /24s against two photos, total 8 MB: answers ${JSON.stringify(statuses)}`);
    expect(refusals.length).toBeGreaterThan(250);
    await expectAttackRefused(s, { statuses, refusals }, 'nl', mine);
  });

  it('a newcomer finds no room while recent photos fill the total: refused with Retry-After until the oldest may make room, not let in at a customer\'s cost', async () => {
    server = await buildTestApp({ ...QUOTAS, PHOTO_QUOTA_PER_PROVIDER_MB: '8', PHOTO_QUOTA_PER_NETWORK_MB: '8' });
    const s = server;
    const mine = await customerOpensForm(s, '192.0.2.10');
    await flood(s, Array.from({ length: 20 }, (_, k) => `198.51.${k}.1`));
    const res = await s.app.inject({ method: 'POST', url: '/api/forms/images', remoteAddress: '203.0.113.5', ...multipartBody(await noisyJpeg(900)) });
    expect(res.statusCode).toBe(503);
    expect((res.json() as { error: string }).error).toMatch(new RegExp(`^${text(portal.languages, 'nl', 'upload.noRoom', { minutes: '§' }).split('§').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\d+')}$`));
    // Until the oldest photo is 30 minutes old: then the oldest unclaimed ones may make room.
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(25 * 60);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(30 * 60);
    expect((await injectSubmit(s.app, 'ilve', simpleRequest(mine[0], mine[1]))).statusCode).toBe(201);
  });
});
