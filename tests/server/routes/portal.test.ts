import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    { API_BASE: 'https://api.example.com', CORS_ORIGINS: 'https://portal.example.com' },
    { 'pages/teka/fr/be.html': '<html><head><meta name="portal:api-base" content=""></head><body>teka fr</body></html>' },
  );
});
afterAll(() => server.dispose());

describe('portal pages', () => {
  it('answers a brand route with 200 HTML carrying the runtime settings', async () => {
    const res = await fetch(`${server.url}/ilve/nl/nl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<meta name="portal:api-base" content="https://api.example.com" />');
    expect(html).toContain('content="https://api.pdok.nl/bzk/locatieserver/search/v3_1/free"');
  });

  it('serves a prerendered page when the build made one', async () => {
    expect(await (await fetch(`${server.url}/teka/fr/be`)).text()).toContain('teka fr');
  });

  it('answers unknown paths and brands with the HTML 404 page', async () => {
    for (const path of ['/', '/nope', '/acme/nl/be', '/teka/nl/de', '/teka/nl/be/extra']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    for (const path of ['/api/nothing', '/api/forms/teka']) {
      const api = await fetch(`${server.url}${path}`);
      expect(api.status, path).toBe(404);
      expect(await api.json(), path).toEqual({ error: expect.any(String) });
    }
  });

  it('serves assets with an immutable cache', async () => {
    const res = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('sends a strict Content-Security-Policy and nosniff', async () => {
    const res = await fetch(`${server.url}/ilve/nl/be`);
    const csp = Object.fromEntries(
      (res.headers.get('content-security-policy') ?? '').split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.pdok.nl', 'https://api.example.com']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('allows CORS for configured origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/forms/ilve`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight('https://portal.example.com')).headers.get('access-control-allow-origin')).toBe(
      'https://portal.example.com',
    );
    expect((await preflight('https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reports alive and ready', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', problems: [] });
  });
});

describe('readiness and rate limits', () => {
  it('is not ready when free disk is below the threshold', async () => {
    const tight = await startTestServer({ MIN_FREE_DISK_MB: '999999999' });
    try {
      const res = await fetch(`${tight.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ problems: ['disk'] });
    } finally {
      await tight.dispose();
    }
  });

  it('limits submits and uploads per client with 429', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SUBMITS: '2', RATE_LIMIT_UPLOADS: '1' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${limited.url}/api/forms/ilve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
      expect(statuses).toEqual([400, 400, 429]);
      const upload = () => fetch(`${limited.url}/api/forms/images`, { method: 'POST', body: new FormData() });
      expect((await upload()).status).toBe(400);
      const refused = await upload();
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
    } finally {
      await limited.dispose();
    }
  });
});
