import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { text } from '../../../src/core/texts';
import { portal } from '../../support/portal-data';
import { captureLogs } from '../log-capture';
import { buildTestApp, count, injectSubmit, injectUpload, multipartBody, simpleRequest, storedPhoto, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** A photo whose re-encoded file is a few hundred kB (noise does not compress). */
function noisyJpeg(side = 900): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

function upload(bytes: Buffer, remoteAddress: string) {
  return server!.app.inject({ method: 'POST', url: '/api/forms/images', remoteAddress, ...multipartBody(bytes) });
}

/** Uploads from one address until refused; returns the stored names and the refusal. */
async function uploadUntilRefused(bytes: Buffer, address: string) {
  const stored: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await upload(bytes, address);
    if (res.statusCode !== 201) return { stored, refusal: res };
    stored.push((res.json() as { filename: string }).filename);
  }
  throw new Error('never refused');
}

describe('storage quotas for unclaimed photos', { timeout: 60_000 }, () => {
  it('refuses a client over its quota with 503 + Retry-After, others go on, and a submit frees it', async () => {
    server = await buildTestApp({ PHOTO_QUOTA_PER_CLIENT_MB: '1' });
    const photo = await noisyJpeg();
    const { stored, refusal } = await uploadUntilRefused(photo, '10.0.0.1');
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.length).toBeLessThan(10);
    expect(refusal.statusCode).toBe(503);
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
    expect(refusal.json()).toEqual({ error: text(portal.languages, 'nl', 'upload.overShare', { minutes: Number(refusal.headers['retry-after']) / 60 }), refusal: 'overShare' });

    expect((await upload(photo, '10.0.0.2')).statusCode).toBe(201);

    // Photos used by a request no longer count against the uploader.
    for (let i = 0; i + 1 < stored.length; i += 2) {
      expect((await injectSubmit(server.app, 'ilve', simpleRequest(stored[i], stored[i + 1]))).statusCode).toBe(201);
    }
    expect((await upload(photo, '10.0.0.1')).statusCode).toBe(201);
  });

  it('never lock out a new client for long: many clients from several networks fill the total; once their photos are 30 minutes old, those of the fullest networks make room, claimed ones stay', { timeout: 120_000 }, async () => {
    server = await buildTestApp({ PHOTO_QUOTA_TOTAL_MB: '2', PHOTO_QUOTA_PER_CLIENT_MB: '1', PHOTO_QUOTA_PER_NETWORK_MB: '1', METRICS_TOKEN: 'metrics-token-for-the-test' });
    const s = server;
    const photo = await noisyJpeg();
    // A customer uploads and sends a request first: the oldest photos are theirs, and claimed.
    const [first, second] = [await injectUpload(s.app, photo, 'image/jpeg', '192.0.2.10'), await injectUpload(s.app, photo, 'image/jpeg', '192.0.2.10')];
    expect((await injectSubmit(s.app, 'ilve', simpleRequest(first, second))).statusCode).toBe(201);
    const claimed = [await storedPhoto(s, first), await storedPhoto(s, second)];
    // Five networks, three addresses each, four uploads per address, never sending a request.
    const statuses: Record<number, number> = {};
    for (let net = 1; net <= 5; net++) {
      for (let host = 1; host <= 3; host++) {
        for (let i = 0; i < 4; i++) {
          const { statusCode } = await upload(photo, `10.${net}.0.${host}`);
          statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
        }
      }
    }
    // Each address and each network met its share (503); the total was full long before the end, and photos
    // younger than 30 minutes never make room: the flood got the total and no more.
    expect(statuses[503]).toBeGreaterThan(0);
    expect(statuses[201]).toBeLessThanOrEqual(Math.ceil((2 * 1024 * 1024) / photo.length) + 1);
    const unclaimed = () => count(s, 'SELECT coalesce(sum(bytes), 0) AS n FROM photos WHERE request_id IS NULL').then(Number);
    // Half an hour later the flood's forms are not open any more.
    await s.sql.run('UPDATE photos SET created_at = created_at - ? WHERE request_id IS NULL', [31 * 60_000]);
    // A new client, of a new network, still gets its photos stored.
    const fresh = [await upload(photo, '198.51.100.7'), await upload(photo, '198.51.100.7')];
    expect(fresh.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(await unclaimed()).toBeLessThanOrEqual(2 * 1024 * 1024 + photo.length);
    // Readiness warns, and stays ready; the metrics say how full and how many made room.
    const ready = await s.app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok', problems: [], warnings: ['unclaimed-photos'] }]);
    const metrics = (await s.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-for-the-test' } })).body;
    expect(Number(/^portal_photos_evicted_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(Number(/^portal_unclaimed_photo_quota_ratio ([\d.]+)/m.exec(metrics)?.[1])).toBeCloseTo((await unclaimed()) / (2 * 1024 * 1024), 3);
    // The new client's photos are there to be sent; the request's photos were never taken.
    const names = fresh.map((r) => (r.json() as { filename: string }).filename);
    expect((await injectSubmit(s.app, 'ilve', simpleRequest(names[0], names[1]))).statusCode).toBe(201);
    expect([await storedPhoto(s, first), await storedPhoto(s, second)]).toEqual(claimed);
    expect(await count(s, 'SELECT count(*) AS n FROM photos WHERE request_id IS NOT NULL').then(Number)).toBe(4);
  });

  it('a flood from 24 networks cannot make a customer\'s open form lose its photos: it is refused once the room is used, nothing evicted', { timeout: 120_000 }, async () => {
    // Quotas in the proportions of the defaults: the total holds far more than 24 customers' photos,
    // and 24 networks at their share hold more than the total.
    server = await buildTestApp({ PHOTO_QUOTA_TOTAL_MB: '16', PHOTO_QUOTA_PER_CLIENT_MB: '1', PHOTO_QUOTA_PER_NETWORK_MB: '2' });
    const s = server;
    const photo = await noisyJpeg(450);
    // The customer's photos are the oldest unclaimed ones: their form is still open.
    const mine = [await injectUpload(s.app, photo, 'image/jpeg', '192.0.2.10'), await injectUpload(s.app, photo, 'image/jpeg', '192.0.2.10')];
    const statuses: Record<number, number> = {};
    for (let net = 1; net <= 24; net++) {
      for (const host of [1, 2]) {
        for (let i = 0; i < 8; i++) {
          const { statusCode } = await upload(photo, `10.${net}.0.${host}`);
          statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
        }
      }
    }
    const evicted = await count(s, 'SELECT count(*) AS n FROM photos').then((n) => (statuses[201] ?? 0) + 2 - Number(n));
    console.log(`[measure] flood from 24 networks × 2 addresses: answers ${JSON.stringify(statuses)}, ${evicted} photos evicted to make room`);
    expect(statuses[503]).toBeGreaterThan(0);
    expect(evicted).toBe(0);
    expect((await injectSubmit(s.app, 'ilve', simpleRequest(mine[0], mine[1]))).statusCode).toBe(201);
  });

  it('refuses uploads with 503 before they would eat into the minimum free disk space', async () => {
    server = await buildTestApp({ MIN_FREE_DISK_MB: String(1024 * 1024 * 1024) });
    const res = await upload(await noisyJpeg(), '10.2.0.1');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(await injectUpload(server.app, await noisyJpeg(), 'image/jpeg').catch((e: Error) => e.message)).toMatch(/503/);
  });
});

describe('the log of a flood of refusals', { timeout: 60_000 }, () => {
  it('says the first refusal of a reason once, not one warning per refused upload', async () => {
    const logs = captureLogs();
    server = await buildTestApp({ PHOTO_QUOTA_PER_CLIENT_MB: '1' }, { logger: logs.logger });
    const photo = await noisyJpeg();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await upload(photo, '10.0.0.1')).statusCode);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(8);
    const warned = logs.lines.filter((l) => l.level === 40 && /refused/.test(String(l.msg)));
    expect(warned).toHaveLength(1);
  });
});
