import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Tally } from '../port';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * @fastify/rate-limit's store on the shared counters (counters.ts): one
 * counter per client and route, shared by every instance, so a client spread
 * over instances by the load balancer meets the same limit. A fixed window,
 * as the default in-memory store keeps.
 */
export function postgresRateLimitStore(tally: Tally): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs the store with its options; a route's child gets its own key prefix. */
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      // Counted at the time of its turn's statement (counters.ts), with the other hits of the turn.
      tally(this.prefix + key, 1, timeWindow).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt - now) }),
        (error: Error) => callback(error),
      );
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
