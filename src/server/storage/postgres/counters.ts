import type { GatedTally, Tally } from '../port';
import type { PostgresSql } from './postgres-sql';

/** Expired counters are removed every this many hits, so the table holds only live windows. */
const PRUNE_EVERY = 1000;

/** Adds to a counter in rate_limits: a window that has ended starts again. */
const ADD = `ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN rate_limits.reset_at <= $4 THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
  reset_at = CASE WHEN rate_limits.reset_at <= $4 THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END`;

/**
 * Counters every instance shares, each in a fixed window (the rate limits,
 * the mail cap): one row per key in rate_limits. `sql` should be a pool that
 * commits without waiting for the disk: losing a count in a crash costs
 * nothing, and a hit must not wait for an fsync.
 */
export function postgresTally(sql: PostgresSql): Tally {
  let hits = 0;
  const prune = async (now: number) => {
    if (++hits % PRUNE_EVERY === 0) await sql.run('DELETE FROM rate_limits WHERE reset_at <= ?', [now]);
  };
  const tally: Tally = async (key, amount, windowMs, now = Date.now()) => {
    await prune(now);
    const [row] = await sql.all<{ hits: number; reset_at: number }>(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, $3) ${ADD} RETURNING hits, reset_at`,
      [key, amount, now + windowMs, now],
    );
    return { count: row.hits, resetAt: row.reset_at };
  };
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
