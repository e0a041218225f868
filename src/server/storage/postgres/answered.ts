import type { DatabaseState } from '../database-state';
import { storeUnavailable } from '../store-unavailable';
import { connectionLost } from './connection-errors';

/**
 * Runs a call to the database: one that finds it gone fails as "unavailable"
 * (the error handler answers 503 with Retry-After), and the state hears of
 * both outcomes, so the log says once when the database goes and comes back.
 */
export async function answered<T>(state: DatabaseState, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    state.answered();
    return result;
  } catch (error) {
    if (!connectionLost(error)) throw error;
    state.unreachable(error as Error);
    throw storeUnavailable(`database: ${(error as Error).message}`);
  }
}
