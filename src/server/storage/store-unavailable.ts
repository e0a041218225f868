/** The error handler answers this code with 503 + Retry-After: the service, not the request, is at fault. */
export const STORE_UNAVAILABLE = 'STORE_UNAVAILABLE';

/**
 * Why the store refuses for now: `busy` (another holder of the write lock), `full` (no room on its disk),
 * `readonly`, `io` (the disk fails), `unreachable` (PostgreSQL does not answer).
 */
export type Unavailability = 'busy' | 'full' | 'readonly' | 'io' | 'unreachable';

export function storeUnavailable(message: string, kind: Unavailability = 'unreachable'): Error {
  return Object.assign(new Error(message), { code: STORE_UNAVAILABLE, kind });
}

/** Whether `error` is the store being out of reach: said once by the database state, not again by each job it stops. */
export function isStoreUnavailable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === STORE_UNAVAILABLE;
}

/** The kind of an unavailable store's error (`unreachable` when it does not say). */
export function unavailability(error: unknown): Unavailability {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? (kind as Unavailability) : 'unreachable';
}
