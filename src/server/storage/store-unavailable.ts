/** The error handler answers this code with 503 + Retry-After: the service, not the request, is at fault. */
export const STORE_UNAVAILABLE = 'STORE_UNAVAILABLE';

export function storeUnavailable(message: string): Error {
  return Object.assign(new Error(message), { code: STORE_UNAVAILABLE });
}

/** Whether `error` is the store being out of reach: said once by the database state, not again by each job it stops. */
export function isStoreUnavailable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === STORE_UNAVAILABLE;
}
