import type { Tally } from '../port';
import type { PostgresSql } from './postgres-sql';

/** Expired counters are removed every this many hits, so the table holds only live windows. */
const PRUNE_EVERY = 1000;

/**
 * Counters every instance shares, each in a fixed window (the rate limits,
 * the mail cap): one row per key in rate_limits. `sql` should be a pool that
 * commits without waiting for the disk: losing a count in a crash costs
 * nothing, and a hit must not wait for an fsync.
 */
export function postgresTally(sql: PostgresSql): Tally {
  let hits = 0;
  return async (key, amount, windowMs, now = Date.now()) => {
    if (++hits % PRUNE_EVERY === 0) await sql.run('DELETE FROM rate_limits WHERE reset_at <= ?', [now]);
    const [row] = await sql.all<{ hits: number; reset_at: number }>(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.reset_at <= ? THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
         reset_at = CASE WHEN rate_limits.reset_at <= ? THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
       RETURNING hits, reset_at`,
      [key, amount, now + windowMs, now, now],
    );
    return { count: row.hits, resetAt: row.reset_at };
  };
}
