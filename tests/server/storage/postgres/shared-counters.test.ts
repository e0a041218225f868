/**
 * The counters every instance shares on PostgreSQL (counters.ts: the rate limits, the mail cap): the hits
 * of one event-loop turn are counted in one round trip, and each caller still gets the count its own hit
 * reached, as if the hits had come one after the other, across instances too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatedTally } from '../../../../src/server/storage/gated-tally';
import { openStorage } from '../../../../src/server/storage/open-storage';
import type { GatedCount, Storage } from '../../../../src/server/storage/port';
import { memoryTally } from '../../../../src/server/storage/sqlite/memory-tally';
import { BACKEND, freshPostgres, type FreshDatabase } from '../../../support/backend';
import { postgresMessages } from '../../../support/postgres-messages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A call of the shared counters: a plain hit (a rate limit's), or a gated count (the mail cap's: a client's counter, then its brand's). */
type Call = { key: string } | { gate: string; then: readonly GatedCount[] };

/** The mail cap's calls for requests of `brands` from `clients` (as mail-cap.ts names its counters), with the rate limit's hits among them. */
function requests(count: number, brands: readonly string[], clients: readonly string[], hour: number): Call[] {
  return Array.from({ length: count }, (_, i): Call[] => {
    const [brand, client] = [brands[i % brands.length], clients[(i * 7) % clients.length]];
    const total = (budget: string) => ({ key: `mail-cap:total:${brand}:${budget}:${hour}`, amount: 1, windowMs: 2 * HOUR });
    const then = i % 2 === 0 ? [{ ...total('customers'), gateAtMost: 4 }, { ...total('notices'), gateAtMost: 3 }] : [{ ...total('customers'), gateAtMost: 3 }];
    return [{ key: `POST/api/requests-${client}` }, { gate: `mail-cap:client:${brand}:${client}:${hour}`, then }];
  }).flat();
}

/** What each call is told: the plain hit's count, or the gate's count and the counts it allowed. */
function call(tally: Storage['tally'], c: Call) {
  if ('key' in c) return tally(c.key, 1, HOUR).then(({ count }) => count);
  return gatedTally(tally)({ key: c.gate, amount: c.then.length, windowMs: 2 * HOUR }, c.then);
}

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

  /** Runs `during` while another session holds a new counter row for `key` it has not committed: counting that key waits, then fails. */
  async function whileHeld(key: string, t0: number, during: () => Promise<void>): Promise<void> {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, 1, $2)', [key, t0 + MINUTE]);
      await during();
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  }

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

  it("count forty requests' mail caps of three brands arriving at once in one round trip, each call told what one after the other would be", async () => {
    const [storage] = instances;
    const calls = requests(40, ['acme', 'bolt', 'cask'], ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'], 1);
    await storage.tally('warm-up', 1, MINUTE);
    const before = messagesToPostgres();
    const answers = await Promise.all(calls.map((c) => call(storage.tally, c)));
    const sent = messagesToPostgres() - before;
    const oneAfterAnother = memoryTally();
    const expected = [];
    for (const c of calls) expected.push(await call(oneAfterAnother, c));
    expect(answers).toEqual(expected);
    // Some clients went past their share and some brands past their budget: those counts were not made.
    expect(answers.flatMap((a) => (typeof a === 'number' ? [] : a.then)).filter((n) => n === undefined).length).toBeGreaterThan(0);
    // Before, one round trip per request's mail cap and one for the turn's plain hits: 41 (now one, and a prune of old counters may add one).
    expect(sent).toBeLessThanOrEqual(2);
  });

  it('give two instances counting the same keys at once, plain and gated, in any roles, each count once and no deadlock', async () => {
    let run = 0;
    // A key is a gate in one call and a count after a gate in another: each statement must take its locks in one order.
    const call$ = fc.record({ gate: fc.nat(5), then: fc.uniqueArray(fc.nat(5), { maxLength: 2 }), atMost: fc.nat(3) });
    const turn$ = fc.array(call$, { minLength: 2, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(turn$, turn$, async (...turns) => {
        run++;
        const key = (k: number) => `${'pqrstu'[k]}-${run}`;
        const calls = turns.map((turn) =>
          turn.map(({ gate, then, atMost }): Call => {
            // A call's gate sorts before its own counts (the port's rule); across calls keys take either role.
            const after = then.filter((k) => k > gate);
            if (after.length === 0) return { key: key(gate) };
            return { gate: key(gate), then: after.map((k, j) => ({ key: key(k), amount: 1, windowMs: 2 * HOUR, gateAtMost: atMost + j })) };
          }),
        );
        // Each instance counts its turn's calls again and again while the other does: their statements overlap.
        const answers = await Promise.all(
          calls.map(async (turn, n) => {
            const told = [];
            for (let again = 0; again < 10; again++) told.push(...(await Promise.all(turn.map((c) => call(instances[n].tally, c)))));
            return told;
          }),
        );
        for (const [n, turn] of calls.entries()) calls[n] = Array.from({ length: 10 }, () => turn).flat();
        // Every key's counts, over both instances, are 1 to the number of its counts made, each once.
        const counts = new Map<string, number[]>();
        const counted = (k: string, n: number | undefined, amount = 1) => {
          if (n === undefined) return;
          const list = counts.get(k) ?? [];
          for (let a = 0; a < amount; a++) list.push(n - a);
          counts.set(k, list);
        };
        for (const [n, turn] of calls.entries())
          for (const [i, c] of turn.entries()) {
            const answer = answers[n][i];
            if ('key' in c) counted(c.key, answer as number);
            else {
              const { gate, then } = answer as { gate: number; then: (number | undefined)[] };
              counted(c.gate, gate, c.then.length);
              for (const [j, t] of c.then.entries()) {
                // A count after the gate is made exactly when the gate's count allows it.
                expect(then[j] !== undefined).toBe(gate <= t.gateAtMost);
                counted(t.key, then[j]);
              }
            }
          }
        for (const list of counts.values()) expect(list.sort((x, y) => x - y)).toEqual(Array.from({ length: list.length }, (_, k) => k + 1));
      }),
      // A ring needs two statements at once: enough runs to meet one (locks taken out of order met one by run 65).
      { numRuns: 300 },
    );
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

  it('answer the calls a turn counted when a later statement of the turn fails (a row locked past the lock timeout), each counted once', async () => {
    const [storage] = instances;
    const t0 = Date.now();
    await whileHeld('held', t0, async () => {
      // Two clocks in one turn: two statements, the free key's first.
      const [free, held] = await Promise.allSettled([storage.tally('free', 1, MINUTE, t0), storage.tally('held', 1, MINUTE, t0 + 1)]);
      expect(free).toEqual({ status: 'fulfilled', value: { count: 1, resetAt: t0 + MINUTE } });
      expect(held.status).toBe('rejected');
    });
    // The free key's hit was counted once, and its caller told so: the next is the second.
    expect((await storage.tally('free', 1, MINUTE, t0 + 2)).count).toBe(2);
    // The failed one was not counted.
    expect((await storage.tally('held', 1, MINUTE, t0 + 3)).count).toBe(1);
  });

  it('refuse at once the calls of a turn that wait on a counter row a failed statement of the turn found locked, so a customer waits one lock timeout, not one a statement', async () => {
    const [storage] = instances;
    const t0 = Date.now();
    await whileHeld('held twice', t0, async () => {
      // Three clocks in one turn, three statements: the held key's two first, then a free key's.
      const started = performance.now();
      const [first, second, free] = await Promise.allSettled([
        storage.tally('held twice', 1, MINUTE, t0),
        storage.tally('held twice', 1, MINUTE, t0 + 1),
        storage.tally('free after', 1, MINUTE, t0 + 2),
      ]);
      const waited = performance.now() - started;
      // Both held calls are refused as a lock not granted (the 503 with Retry-After), the free one counted.
      for (const held of [first, second]) expect(held).toMatchObject({ status: 'rejected', reason: { code: 'STORE_UNAVAILABLE', kind: 'busy' } });
      expect(free).toEqual({ status: 'fulfilled', value: { count: 1, resetAt: t0 + 2 + MINUTE } });
      // The pool's lock_timeout is 2.5 s: the second call did not wait for it again (5 s and more before).
      expect(waited).toBeLessThan(4_000);
    });
    expect((await storage.tally('held twice', 1, MINUTE, t0 + 3)).count).toBe(1);
    expect((await storage.tally('free after', 1, MINUTE, t0 + 4)).count).toBe(2);
  });
});

/** Messages this process has sent to PostgreSQL on all its connections, one a round trip. */
function messagesToPostgres(): number {
  return [...postgresMessages([process.pid]).values()].reduce((sum, n) => sum + n, 0);
}
