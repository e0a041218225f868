import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../log-capture';
import { buildTestApp, type TestServer } from '../helpers';

const TOKEN = 'scrape-token-123';

describe('/metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await buildTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => server.dispose());

  const scrape = (authorization?: string) => server.app.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  // RFC 9110 §11.1: the scheme is case-insensitive, and one or more spaces follow it.
  it.each([`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER ${TOKEN}`, `bEaReR ${TOKEN}`, `Bearer  ${TOKEN}`])('serves a scrape that sends %j', async (authorization) => {
    const res = await scrape(authorization);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('portal_requests_accepted_total');
  });

  it.each([undefined, '', `Basic ${TOKEN}`, `Bearer${TOKEN}`, `Bearer ${TOKEN.toUpperCase()}`, `Bearer ${TOKEN}x`, 'Bearer scrape-token-12', TOKEN])('refuses %j', async (authorization) => {
    const res = await scrape(authorization);
    expect([res.statusCode, res.json()]).toEqual([401, { error: 'A metrics token is required.' }]);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('is not served at all, and the start says how to turn it on', async () => {
    const { logger, lines } = captureLogs();
    const server = await buildTestApp({}, { logger });
    try {
      const res = await server.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('portal_');
      expect(lines.map((l) => l.msg)).toContain('/metrics is off: set METRICS_TOKEN to serve it to your monitoring');
    } finally {
      await server.dispose();
    }
  });
});
