import type { DatabaseState } from '../database-state';
import { storeUnavailable, type Unavailability } from '../store-unavailable';
import { pgUnavailability } from './connection-errors';

/**
 * Runs a call to the database: one that finds it gone fails as "unavailable"
 * (the error handler answers 503 with Retry-After), and the state hears of
 * both outcomes, so the log says once when the database goes and comes back.
 * `told` false for a kind: the caller decides whether that failure is the
 * database's state (a lock the caller may wait out instead), and tells it.
 */
export async function answered<T>(state: DatabaseState, call: () => Promise<T>, stored = true, told: (kind: Unavailability) => boolean = () => true): Promise<T> {
  try {
    const result = await call();
    state.answered(stored);
    return result;
  } catch (error) {
    const kind = pgUnavailability(error);
    if (kind === undefined) throw error;
    // The database's own error stays its cause: a caller may tell a deadlock from a lock not granted in time.
    const unavailable = Object.assign(storeUnavailable(`database: ${(error as Error).message}`, kind), { cause: error });
    if (told(kind)) state.unreachable(unavailable);
    throw unavailable;
  }
}
