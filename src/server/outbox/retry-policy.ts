const MAX_BACKOFF_MS = 6 * 60 * 60_000;

/**
 * Exponential backoff with jitter: the n-th retry waits base·2^(n-1) (capped
 * at 6 h) times a random factor in [0.5, 1.5), so deliveries that failed
 * together (a receiver that was down) do not all return at once.
 * A Retry-After from the receiver is honoured when it asks for longer.
 */
export function retryDelayMs(attempts: number, baseMs: number, retryAfterMs = 0, random = Math.random): number {
  const backoff = Math.min(baseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS) * (0.5 + random());
  return Math.round(Math.max(backoff, Math.min(retryAfterMs, MAX_BACKOFF_MS)));
}
