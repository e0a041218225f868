import { GroupCommit } from '../group-commit';
import type { GatedTally, Outcome, Tally } from '../port';
import type { PostgresSql } from './postgres-sql';

/** Expired counters are removed every this many hits, so the table holds only live windows. */
const PRUNE_EVERY = 1000;

/** Adds to a counter in rate_limits (`now` its placeholder): a window that has ended starts again. */
const add = (now: string) => `ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN rate_limits.reset_at <= ${now} THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
  reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END`;
const ADD = add('$4');

/** A call of the tally waiting for its turn's statement; `now` undefined counts it at the statement's own time. */
interface Hit {
  key: string;
  amount: number;
  windowMs: number;
  now: number | undefined;
}

/** A key's hits of one turn: their sum, the first one's window, and the count and window end the statement returned. */
interface KeyCount {
  amount: number;
  windowMs: number;
  hits?: number;
  resetAt?: number;
}

/**
 * The hits of one event-loop turn that share a clock, as counts per key: the same key twice in one
 * upsert is an error, and each key's hits are the same as calls one after the other (the first's
 * window holds for the rest).
 */
function rounds(hits: readonly Hit[], flushedAt: number): Map<number, Map<string, KeyCount>> {
  const byClock = new Map<number, Map<string, KeyCount>>();
  for (const { key, amount, windowMs, now = flushedAt } of hits) {
    let keys = byClock.get(now);
    if (keys === undefined) byClock.set(now, (keys = new Map()));
    const counted = keys.get(key);
    if (counted) counted.amount += amount;
    else keys.set(key, { amount, windowMs });
  }
  return byClock;
}

/**
 * Counters every instance shares, each in a fixed window (the rate limits,
 * the mail cap): one row per key in rate_limits. `sql` should be a pool that
 * commits without waiting for the disk: losing a count in a crash costs
 * nothing, and a hit must not wait for an fsync. The hits of one event-loop
 * turn are counted in one statement (a round trip each was a third of a
 * submit's), every caller answered with the count its own hit reached.
 */
export function postgresTally(sql: PostgresSql): Tally {
  let hits = 0;
  const prune = async (now: number, amount = 1) => {
    const before = hits;
    hits += amount;
    if (Math.floor(hits / PRUNE_EVERY) > Math.floor(before / PRUNE_EVERY)) await sql.run('DELETE FROM rate_limits WHERE reset_at <= ?', [now]);
  };
  const count = async (batch: Hit[]): Promise<Outcome<{ count: number; resetAt: number }>[]> => {
    const flushedAt = Date.now();
    await prune(flushedAt, batch.length);
    // Clocks one after the other (a caller's own `now` is a test's or an hour's); keys in one order, so two
    // instances' statements lock the rows they share in the same order and never wait on each other in a ring.
    const counts = rounds(batch, flushedAt);
    for (const [now, keys] of counts) {
      const rows = await sql.all<{ key: string; hits: number; reset_at: number }>(
        `INSERT INTO rate_limits (key, hits, reset_at)
         SELECT h.key, h.amount, $2 + h.window_ms FROM json_to_recordset($1::json) AS h(key text, amount bigint, window_ms bigint)
         ORDER BY h.key COLLATE "C"
         ${add('$2')} RETURNING key, hits, reset_at`,
        [JSON.stringify([...keys].map(([key, { amount, windowMs }]) => ({ key, amount, window_ms: windowMs }))), now],
      );
      for (const row of rows) {
        const counted = keys.get(row.key);
        if (counted) Object.assign(counted, { hits: Number(row.hits), resetAt: Number(row.reset_at) });
      }
    }
    // Within a key's hits of a turn, each reached the count the key ended at, less the hits after it: the
    // last hit takes the key's count, and each one before it that count less those after it.
    const answers: Outcome<{ count: number; resetAt: number }>[] = [];
    for (let i = batch.length - 1; i >= 0; i--) {
      const { key, amount, now = flushedAt } = batch[i];
      const counted = counts.get(now)?.get(key);
      if (counted?.hits === undefined || counted.resetAt === undefined) {
        answers[i] = { ok: false, error: { message: `no count came back for ${key}` } };
        continue;
      }
      answers[i] = { ok: true, value: { count: counted.hits, resetAt: counted.resetAt } };
      counted.hits -= amount;
    }
    return answers;
  };
  const turn = new GroupCommit<Hit, { count: number; resetAt: number }>(count);
  const tally: Tally = (key, amount, windowMs, now) => turn.submit({ key, amount, windowMs, now });
  // The gated counts read the gate's new count from its RETURNING, in the same statement (one round trip).
  const gated: GatedTally = async (gate, then, now) => {
    await prune(now);
    const [row] = await sql.all<{ gate: number; counted: { key: string; hits: number }[] }>(
      `WITH g AS (
         INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, $3) ${ADD} RETURNING hits
       ), t AS (
         INSERT INTO rate_limits (key, hits, reset_at)
         SELECT s.key, s.amount, $4 + s.window_ms
         FROM json_to_recordset($5::json) AS s(key text, amount bigint, window_ms bigint, gate_at_most bigint), g
         WHERE g.hits <= s.gate_at_most
         ${ADD} RETURNING key, hits
       )
       SELECT (SELECT hits FROM g) AS gate,
         coalesce((SELECT json_agg(json_build_object('key', t.key, 'hits', t.hits)) FROM t), '[]') AS counted`,
      [gate.key, gate.amount, now + gate.windowMs, now, JSON.stringify(then.map((c) => ({ key: c.key, amount: c.amount, window_ms: c.windowMs, gate_at_most: c.gateAtMost })))],
    );
    const counted = new Map(row.counted.map((c) => [c.key, c.hits]));
    return { gate: row.gate, then: then.map((c) => counted.get(c.key)) };
  };
  tally.gated = gated;
  return tally;
}
