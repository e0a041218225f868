import type { Tally } from '../port';

/**
 * Counters in fixed windows, in memory: a SQLite server is one instance, so
 * its counters (the mail cap) need no sharing; a restart starts them again.
 */
export function memoryTally(): Tally {
  const counters = new Map<string, { count: number; resetAt: number }>();
  return async (key, amount, windowMs, now = Date.now()) => {
    const current = counters.get(key);
    const counter = current && current.resetAt > now ? { count: current.count + amount, resetAt: current.resetAt } : { count: amount, resetAt: now + windowMs };
    counters.set(key, counter);
    // Expired windows go once the map grows: keys are few (one per brand), but never unbounded.
    if (counters.size > 1000) for (const [k, c] of counters) if (c.resetAt <= now) counters.delete(k);
    return counter;
  };
}
