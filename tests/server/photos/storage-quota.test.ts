import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, injectSubmit, injectUpload, multipartBody, simpleRequest, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** A photo whose re-encoded file is a few hundred kB (noise does not compress). */
function noisyJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 900, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
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

describe('storage quotas for unclaimed photos', () => {
  it('refuses a client over its quota with 503 + Retry-After, others go on, and a submit frees it', async () => {
    server = await buildTestApp({ PHOTO_QUOTA_PER_CLIENT_MB: '1' });
    const photo = await noisyJpeg();
    const { stored, refusal } = await uploadUntilRefused(photo, '10.0.0.1');
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.length).toBeLessThan(10);
    expect(refusal.statusCode).toBe(503);
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
    expect(refusal.json()).toEqual({ error: expect.stringContaining('try again later') });

    expect((await upload(photo, '10.0.0.2')).statusCode).toBe(201);

    // Photos used by a request no longer count against the uploader.
    for (let i = 0; i + 1 < stored.length; i += 2) {
      expect((await injectSubmit(server.app, 'ilve', simpleRequest(stored[i], stored[i + 1]))).statusCode).toBe(201);
    }
    expect((await upload(photo, '10.0.0.1')).statusCode).toBe(201);
  });

  it('refuses everyone once all unclaimed photos together reach the total quota', async () => {
    server = await buildTestApp({ PHOTO_QUOTA_TOTAL_MB: '1' });
    const photo = await noisyJpeg();
    let refusal;
    for (let i = 0; i < 20 && !refusal; i++) {
      const res = await upload(photo, `10.1.0.${i + 1}`);
      if (res.statusCode !== 201) refusal = res;
    }
    expect(refusal?.statusCode).toBe(503);
    expect(refusal?.headers['retry-after']).toBeDefined();
  });

  it('refuses uploads with 503 before they would eat into the minimum free disk space', async () => {
    server = await buildTestApp({ MIN_FREE_DISK_MB: String(1024 * 1024 * 1024) });
    const res = await upload(await noisyJpeg(), '10.2.0.1');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(await injectUpload(server.app, await noisyJpeg(), 'image/jpeg').catch((e: Error) => e.message)).toMatch(/503/);
  });
});
