/**
 * References of new requests (core/reference.ts, intake/request-store.ts):
 * short, distinct under concurrency, and a reference another request has is
 * replaced by a new one. The backend matrix runs this on SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { newReference } from '../../../src/server/intake/request-store';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../helpers';

const SHORT_REFERENCE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** References drawn from `list` first, then at random: a test's way to make two requests draw the same one. */
function drawing(list: string[]): () => string {
  const queue = [...list];
  return () => queue.shift() ?? newReference();
}

async function submitted(app: TestServer): Promise<string> {
  const photo = await png();
  const [image1, image2] = [await injectUpload(app.app, photo), await injectUpload(app.app, photo)];
  const res = await injectSubmit(app.app, 'ilve', simpleRequest(image1, image2));
  expect(res.statusCode).toBe(201);
  return (res.json() as { reference: string }).reference;
}

/** What was queued for a request: every delivery's subject and text. */
async function queuedFor(app: TestServer, reference: string): Promise<string[]> {
  const rows = await app.sql.all<{ subject: string; body: string }>(
    'SELECT o.subject, o.body FROM outbox o JOIN requests r ON r.id = o.request_id WHERE r.reference = ? ORDER BY o.id',
    [reference],
  );
  return rows.map((r) => `${r.subject}\n${r.body}`);
}

describe('references of new requests', { timeout: 60_000 }, () => {
  it('answer 201 with a short reference people can read out, e.g. K7QM-4XRT-9P', async () => {
    server = await buildTestApp();
    expect(await submitted(server)).toMatch(SHORT_REFERENCE);
  });

  it('are distinct for many requests sent at once', async () => {
    server = await buildTestApp();
    const app = server;
    const photo = await png();
    const bodies = await Promise.all(
      Array.from({ length: 40 }, async () => simpleRequest(await injectUpload(app.app, photo), await injectUpload(app.app, photo))),
    );
    const answers = await Promise.all(bodies.map((body) => injectSubmit(app.app, 'ilve', body)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(40).fill(201));
    const references = answers.map((res) => (res.json() as { reference: string }).reference);
    expect(references.every((r) => SHORT_REFERENCE.test(r))).toBe(true);
    expect(new Set(references).size).toBe(40);
    const [{ n }] = await app.sql.all<{ n: number }>('SELECT count(DISTINCT reference) AS n FROM requests');
    expect(Number(n)).toBe(40);
  });

  it('stay distinct and evenly spread over many thousands drawn, far past one draw of the generator', () => {
    const references = Array.from({ length: 20_000 }, newReference);
    expect(references.every((r) => SHORT_REFERENCE.test(r))).toBe(true);
    // Fifty random bits: two equal among 20,000 would be a one-in-five-million chance, or bytes used twice.
    expect(new Set(references).size).toBe(references.length);
    // Each of the 32 symbols at each of the 10 places: 625 expected, far from 400 or 850 only if biased.
    for (let place = 0; place < 10; place++) {
      const counts = new Map<string, number>();
      for (const r of references) {
        const symbol = r.replace(/-/g, '')[place];
        counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      }
      expect(counts.size).toBe(32);
      for (const n of counts.values()) {
        expect(n).toBeGreaterThan(450);
        expect(n).toBeLessThan(800);
      }
    }
  });

  it('replace a reference another request has by a new one, with mails that name the new one', async () => {
    server = await buildTestApp({}, { references: drawing(['AAAA-AAAA-AA', 'AAAA-AAAA-AA', 'BBBB-BBBB-BB']) });
    expect(await submitted(server)).toBe('AAAA-AAAA-AA');
    expect(await submitted(server)).toBe('BBBB-BBBB-BB');
    const mails = await queuedFor(server, 'BBBB-BBBB-BB');
    expect(mails.length).toBe(2); // the customer's confirmation and the desk's mail
    for (const mail of mails) {
      expect(mail).toContain('BBBB-BBBB-BB');
      expect(mail).not.toContain('AAAA-AAAA-AA');
    }
    expect(await queuedFor(server, 'AAAA-AAAA-AA')).toHaveLength(2);
  });

  it('replace a reference two requests sent at once both drew', async () => {
    server = await buildTestApp({}, { references: drawing(['CCCC-CCCC-CC', 'CCCC-CCCC-CC', 'DDDD-DDDD-DD']) });
    const references = await Promise.all([submitted(server), submitted(server)]);
    expect(references.sort()).toEqual(['CCCC-CCCC-CC', 'DDDD-DDDD-DD']);
    expect(await queuedFor(server, 'DDDD-DDDD-DD')).toEqual([expect.stringContaining('DDDD-DDDD-DD'), expect.stringContaining('DDDD-DDDD-DD')]);
  });

  it('give up with 500, storing nothing, when the generator keeps drawing a taken one', async () => {
    server = await buildTestApp({}, { references: () => 'EEEE-EEEE-EE' });
    expect(await submitted(server)).toBe('EEEE-EEEE-EE');
    const photo = await png();
    const res = await injectSubmit(server.app, 'ilve', simpleRequest(await injectUpload(server.app, photo), await injectUpload(server.app, photo)));
    expect(res.statusCode).toBe(500);
    const [{ n }] = await server.sql.all<{ n: number }>('SELECT count(*) AS n FROM requests');
    expect(Number(n)).toBe(1);
  });
});
