const MAX_BACKOFF_MS = 6 * 60 * 60_000;

/** base·2^(n-1), capped at `maxMs`, times a random factor in [0.5, 1.5): what fails together does not return together. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  return Math.round(Math.min(baseMs * 2 ** (attempts - 1), maxMs) * (0.5 + random()));
}

/**
 * A delivery's next try: exponential backoff with jitter, capped at 6 h, so
 * deliveries that failed together (a receiver that was down) do not all
 * return at once. A Retry-After from the receiver is honoured when it asks for longer.
 */
export function retryDelayMs(attempts: number, baseMs: number, retryAfterMs = 0, random = Math.random): number {
  return Math.max(backoffMs(attempts, baseMs, MAX_BACKOFF_MS, random), Math.round(Math.min(retryAfterMs, MAX_BACKOFF_MS)));
}
