import { storeUnavailable, type Unavailability } from '../store-unavailable';

/**
 * SQLite's result codes (the primary code: `errcode & 0xff`, node:sqlite's
 * ERR_SQLITE_ERROR carries the extended one) that mean "cannot store now",
 * not "this request is wrong". The one place SQLite's errors are sorted.
 */
const UNAVAILABLE: Record<number, Unavailability> = {
  5: 'busy', // SQLITE_BUSY: another connection (an outside sqlite3) holds the write lock past busy_timeout
  6: 'busy', // SQLITE_LOCKED
  8: 'readonly', // SQLITE_READONLY
  10: 'io', // SQLITE_IOERR
  13: 'full', // SQLITE_FULL
};

/** `error` as the store being unavailable (503 + Retry-After), or as it is when the request or our code is at fault. */
export function sqliteError(error: unknown): unknown {
  const { errcode, message } = (error ?? {}) as { errcode?: unknown; message?: unknown };
  const kind = typeof errcode === 'number' ? UNAVAILABLE[errcode & 0xff] : undefined;
  return kind === undefined ? error : storeUnavailable(`database: ${String(message)}`, kind);
}

/** Whether `error` is SQLite's SQLITE_BUSY: the write lock is held by another connection. */
export function isBusy(error: unknown): boolean {
  const { errcode } = (error ?? {}) as { errcode?: unknown };
  return typeof errcode === 'number' && (errcode & 0xff) === 5;
}
