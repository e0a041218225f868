/**
 * The longest pause between two attempts of one delivery: after a relay or receiver comes back,
 * everything queued meanwhile goes out within this, however long the outage lasted.
 */
export const MAX_RETRY_DELAY_MS = 30 * 60_000;

/** base·2^(n-1), capped at `maxMs`, times a random factor in [0.5, 1.5): what fails together does not return together. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  return Math.round(Math.min(baseMs * 2 ** (attempts - 1), maxMs) * (0.5 + random()));
}

/**
 * A delivery's next try: exponential backoff with jitter, capped at MAX_RETRY_DELAY_MS (give or
 * take the jitter), so deliveries that failed together (a receiver that was down) do not all
 * return at once. A Retry-After from the receiver is honoured when it asks for longer, up to the same cap.
 */
export function retryDelayMs(attempts: number, baseMs: number, retryAfterMs = 0, random = Math.random): number {
  return Math.max(backoffMs(attempts, baseMs, MAX_RETRY_DELAY_MS, random), Math.round(Math.min(retryAfterMs, MAX_RETRY_DELAY_MS)));
}
