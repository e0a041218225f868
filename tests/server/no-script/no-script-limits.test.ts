/**
 * Only accepted requests count toward the submit limit: a customer correcting
 * mistakes is never locked out, while a flood of posts (valid or not) still
 * meets its own, higher limit. Counters live in the rate-limit plugin's store
 * (PostgreSQL's when instances share one), so every instance sees the same count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../../support/backend';
import type { TestServer } from '../helpers';
import { formBody, postForm, seedOf, startNoScriptServer, twoPhotos, typedValues } from './no-script-support';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.dispose()));
});

async function start(env: Record<string, string>): Promise<TestServer> {
  const server = await startNoScriptServer(env);
  servers.push(server);
  return server;
}

const LIMITS = { RATE_LIMIT_SUBMITS: '10', RATE_LIMIT_FORM_POSTS: '30' };
let keys = 0;
const newKey = () => `limit-key-${++keys}`;

describe('the submit limit of the form without scripts', () => {
  it('a customer who fails validation 15 times in a minute can still send the corrected form', async () => {
    const server = await start(LIMITS);
    const key = newKey();
    for (let i = 0; i < 15; i++) {
      const res = await postForm(server, '/ilve/nl/nl', formBody(typedValues({ postal_code: 'fout' }), [], key));
      expect(res.status, `attempt ${i + 1}`).toBe(400);
    }
    expect((await postForm(server, '/ilve/nl/nl', formBody(typedValues(), await twoPhotos(), key))).status).toBe(303);
  });

  it('a flood of invalid posts meets its own limit: a page in the route\'s language with Retry-After', async () => {
    const server = await start(LIMITS);
    for (let i = 0; i < 30; i++) {
      expect((await postForm(server, '/ilve/fr/be', formBody({ last_name: 'x' }, [], newKey()))).status, `post ${i + 1}`).toBe(400);
    }
    const refused = await postForm(server, '/ilve/fr/be', formBody({ last_name: 'x' }, [], newKey()));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { url, seed } = seedOf(await refused.text());
    expect([url, seed.notice]).toEqual(['/ilve/fr/be', { kind: 'too-many' }]);
  });

  it('posts another site makes a visitor\'s browser send count toward nothing: they are refused first', async () => {
    const server = await start(LIMITS);
    for (let i = 0; i < 40; i++) {
      const forged = await postForm(server, '/ilve/nl/nl', formBody(typedValues(), [], newKey()), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
      expect(forged.status).toBe(403);
    }
    expect((await postForm(server, '/ilve/nl/nl', formBody(typedValues(), await twoPhotos(), newKey()))).status).toBe(303);
  });

  it('accepted requests count: past the limit a valid form gets the page, with its values and photos kept', async () => {
    const server = await start({ ...LIMITS, RATE_LIMIT_SUBMITS: '3' });
    const photos = await twoPhotos();
    for (let i = 0; i < 3; i++) {
      expect((await postForm(server, '/ilve/nl/nl', formBody(typedValues({ description: `Aanvraag ${i}` }), photos, newKey()))).status).toBe(303);
    }
    const key = newKey();
    const refused = await postForm(server, '/ilve/nl/nl', formBody(typedValues({ description: 'Nog een' }), photos, key));
    expect(refused.status).toBe(429);
    const html = await refused.text();
    const { seed } = seedOf(html);
    expect(seed.notice).toEqual({ kind: 'too-many' });
    expect(seed.formData).toMatchObject({ description: 'Nog een' });
    expect(seed.formData.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(html).toContain(`name="submission" value="${key}"`);
    expect(await server.sql.all('SELECT reference FROM requests WHERE idempotency_key = ?', [key])).toEqual([]);
  });

  it.runIf(BACKEND === 'postgres')('counts accepted requests across instances sharing one database', async () => {
    const a = await start({ ...LIMITS, RATE_LIMIT_SUBMITS: '3' });
    const b = await start({ ...LIMITS, RATE_LIMIT_SUBMITS: '3', DATABASE_URL: a.config.databaseUrl });
    const photos = await twoPhotos();
    const statuses = [];
    for (const server of [a, b, a, b]) {
      statuses.push((await postForm(server, '/ilve/nl/nl', formBody(typedValues({ description: `Via ${server.url}` }), photos, newKey()))).status);
    }
    expect(statuses).toEqual([303, 303, 303, 429]);
  });
});
