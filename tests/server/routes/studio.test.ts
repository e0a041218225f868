import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { startTestServer, type TestServer } from '../helpers';

/** A stand-in for what npm run build writes to WEB_ROOT/studio. */
const STUDIO_FILES = {
  'studio/index.html': '<!doctype html><html lang="en"><head><title>Brand studio</title></head><body><div id="studio"></div></body></html>',
  'studio/preview.html': '<!doctype html><html lang="nl"><head><title>Preview</title></head><body><div id="root"></div></body></html>',
  'studio/project.json': '{"layout":{"brandsDir":"brands","schemasDir":"schemas","rulesDir":"schemas"},"files":{}}',
  'studio/assets/index-abc123.js': 'export {};\n',
};

describe('the brand studio is served only where STUDIO=on', () => {
  let off: TestServer;
  let on: TestServer;
  beforeAll(async () => {
    [off, on] = await Promise.all([startTestServer({}, STUDIO_FILES), startTestServer({ STUDIO: 'on' }, STUDIO_FILES)]);
  });
  afterAll(async () => {
    await Promise.all([off?.dispose(), on?.dispose()]);
  });

  it('by default, /studio is the portal 404 page, and none of its files is served', async () => {
    for (const url of ['/studio', '/studio/', '/studio/project.json', '/studio/assets/index-abc123.js']) {
      const res = await off.app.inject(url);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('with STUDIO=on, /studio leads to its page, sent with its own policy: it may frame its preview, and evaluate the forms it compiles', async () => {
    expect((await on.app.inject('/studio')).headers.location).toBe('/studio/');
    const page = await on.app.inject('/studio/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Brand studio');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' 'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("form-action 'none'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await on.app.inject('/studio/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await on.app.inject('/studio/project.json')).json()).toMatchObject({ layout: { brandsDir: 'brands' } });
  });

  it("with STUDIO=on, a customer's page keeps the portal's strict policy: no evaluation, no framing", async () => {
    const page = await on.app.inject('/ilve/nl/nl');
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses a STUDIO that is neither on nor off, by name', () => {
    expect(() => loadConfig({ STUDIO: 'maybe' })).toThrow('STUDIO must be on or off');
    expect(loadConfig({ STUDIO: 'off' }).studio).toBe(false);
    expect(loadConfig({}).studio).toBe(false);
  });
});
