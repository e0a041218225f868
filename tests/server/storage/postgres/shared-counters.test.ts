/**
 * The counters every instance shares on PostgreSQL (counters.ts: the rate limits, the mail cap): the hits
 * of one event-loop turn are counted in one round trip, and each caller still gets the count its own hit
 * reached, as if the hits had come one after the other, across instances too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../../../src/server/storage/open-storage';
import type { Storage } from '../../../../src/server/storage/port';
import { BACKEND, freshPostgres, type FreshDatabase } from '../../../support/backend';
import { postgresMessages } from '../../../support/postgres-messages';

const MINUTE = 60_000;

describe.runIf(BACKEND === 'postgres')('the shared counters on PostgreSQL', { timeout: 60_000 }, () => {
  let dirs: string[];
  let db: FreshDatabase;
  let instances: Storage[];

  beforeAll(async () => {
    db = await freshPostgres();
    dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'shared-counters-')));
    instances = [];
    for (const dir of dirs) instances.push(await openStorage({ dataDir: dir, databaseUrl: db.url, databasePoolSize: 4, deliveryLeaseMs: 60_000 }));
  });

  afterAll(async () => {
    for (const storage of instances ?? []) await storage.close();
    await db?.drop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('count the hits of forty clients arriving at once in one round trip, each client with its own count', async () => {
    const [storage] = instances;
    await storage.tally('warm-up', 1, MINUTE);
    const before = messagesToPostgres();
    const clients = Array.from({ length: 40 }, (_, i) => `POST/api/requests-192.0.2.${i}`);
    // One of them sends five at once: they reach 1 to 5, one each, as one after the other would.
    const answers = await Promise.all([...clients, ...Array(4).fill(clients[7])].map((key) => storage.tally(key, 1, MINUTE)));
    const sent = messagesToPostgres() - before;
    // Before, one round trip each: 44.
    expect(sent).toBeLessThanOrEqual(2);
    expect(answers.slice(0, 40).map((a, i) => (i === 7 ? 1 : a.count))).toEqual(Array(40).fill(1));
    expect([answers[7], ...answers.slice(40)].map((a) => a.count).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const { resetAt } of answers) expect(resetAt).toBeGreaterThan(Date.now());
  });

  it('give two instances counting one client at once every count from 1 to 60 exactly once, and no deadlock over shared keys', async () => {
    const keys = ['a-client', 'b-client', 'c-client'];
    const hits = instances.flatMap((storage, n) =>
      Array.from({ length: 30 }, (_, i) => {
        // The instances meet the other keys in opposite orders.
        const other = keys[(n === 0 ? i : keys.length * 30 - i) % keys.length];
        return [storage.tally('one-client', 1, MINUTE), storage.tally(other, 1, MINUTE)];
      }),
    );
    const answers = await Promise.all(hits.flat());
    const oneClient = answers.filter((_, i) => i % 2 === 0).map((a) => a.count);
    expect(oneClient.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const others = answers.filter((_, i) => i % 2 === 1).map((a) => a.count);
    expect(Math.max(...others)).toBe(20);
  });

  it('start a new window for a hit whose own clock is past the window, in the same turn as one inside it', async () => {
    const [storage] = instances;
    const t0 = Date.now();
    const [first, inside, past, afterPast] = await Promise.all([
      storage.tally('clocked', 1, MINUTE, t0),
      storage.tally('clocked', 2, MINUTE, t0 + 1000),
      storage.tally('clocked', 1, MINUTE, t0 + 2 * MINUTE),
      storage.tally('clocked', 1, MINUTE, t0 + 2 * MINUTE),
    ]);
    expect([first.count, inside.count, past.count, afterPast.count]).toEqual([1, 3, 1, 2]);
    expect(first.resetAt).toBe(t0 + MINUTE);
    expect(inside.resetAt).toBe(t0 + MINUTE);
    expect(past.resetAt).toBe(t0 + 3 * MINUTE);
  });
});

/** Messages this process has sent to PostgreSQL on all its connections, one a round trip. */
function messagesToPostgres(): number {
  return [...postgresMessages([process.pid]).values()].reduce((sum, n) => sum + n, 0);
}
