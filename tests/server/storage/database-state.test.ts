import { afterEach, describe, expect, it, vi } from 'vitest';
import { AFTERSHOCK_MS, DatabaseState } from '../../../src/server/storage/database-state';

/** A connection lost, as node-postgres says it. */
const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

function stateWithLog() {
  const lines: string[] = [];
  const say = (_data: object, message: string) => void lines.push(message.replace(/\d+(\.\d+)? s/, 'N s'));
  return { state: new DatabaseState({ error: say, warn: say, info: say }), lines };
}

afterEach(() => vi.useRealTimers());

describe('DatabaseState: each outage told once', () => {
  it('a restart: the pooled connections failing one by one after it is back are the same outage, down again but not told', () => {
    vi.useFakeTimers({ now: 0 });
    const { state, lines } = stateWithLog();
    state.unreachable(lost());
    state.unreachable(lost());
    vi.advanceTimersByTime(2_000);
    state.answered();
    expect(state.up).toBe(true);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(300);
      state.unreachable(lost());
      expect(state.up).toBe(false);
      state.answered();
    }
    expect(lines).toEqual(['database unreachable', 'database back after N s']);
  });

  it('a failure later than the aftershock, or one that lasts past it, is an outage of its own', () => {
    vi.useFakeTimers({ now: 0 });
    const { state, lines } = stateWithLog();
    state.unreachable(lost());
    state.answered();
    vi.advanceTimersByTime(AFTERSHOCK_MS + 1);
    state.unreachable(lost());
    state.answered();
    expect(lines).toEqual(['database unreachable', 'database back after N s', 'database unreachable', 'database back after N s']);
    vi.advanceTimersByTime(1_000);
    state.unreachable(lost());
    vi.advanceTimersByTime(AFTERSHOCK_MS);
    state.unreachable(lost());
    state.unreachable(lost());
    state.answered();
    expect(lines.slice(4)).toEqual(['database unreachable', 'database back after N s']);
  });
});
