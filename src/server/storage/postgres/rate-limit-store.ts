import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { PostgresSql } from './postgres-sql';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/** Expired counters are removed every this many hits, so the table holds only live windows. */
const PRUNE_EVERY = 1000;

/**
 * @fastify/rate-limit's store on PostgreSQL: one counter per client and
 * route, shared by every instance, so a client spread over instances by the
 * load balancer meets the same limit. A fixed window, as the default
 * in-memory store keeps. `sql` should be a pool that commits without
 * waiting for the disk: losing a counter in a crash costs nothing, and a
 * hit must not wait for an fsync.
 */
export function postgresRateLimitStore(sql: PostgresSql): FastifyRateLimitStoreCtor {
  let hits = 0;
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs the store with its options; a route's child gets its own key prefix. */
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      const prune = ++hits % PRUNE_EVERY === 0 ? sql.run('DELETE FROM rate_limits WHERE reset_at <= ?', [now]) : Promise.resolve(0);
      prune
        .then(() =>
          sql.all<{ hits: number; reset_at: number }>(
            `INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
             ON CONFLICT (key) DO UPDATE SET
               hits = CASE WHEN rate_limits.reset_at <= ? THEN 1 ELSE rate_limits.hits + 1 END,
               reset_at = CASE WHEN rate_limits.reset_at <= ? THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
             RETURNING hits, reset_at`,
            [this.prefix + key, now + timeWindow, now, now],
          ),
        )
        .then(([row]) => callback(null, { current: row.hits, ttl: Math.max(0, row.reset_at - now) }), (error: Error) => callback(error));
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route as routeInfo (as its own Redis store reads it).
      const { routeInfo } = routeOptions as unknown as { routeInfo?: { method?: string; url?: string } };
      const route = `${routeInfo?.method ?? ''}${routeInfo?.url ?? ''}`;
      return new PostgresRateLimitStore({ keyPrefix: `${this.prefix}${route}-` });
    }
  }
  return PostgresRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
