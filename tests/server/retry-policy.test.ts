import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../src/server/outbox/retry-policy';

describe('retryDelayMs', () => {
  it('doubles per attempt, spread by jitter between half and one and a half times', () => {
    expect(retryDelayMs(1, 1000, 0, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, 0, () => 0.999)).toBe(1499);
    expect(retryDelayMs(4, 1000, 0, () => 0.5)).toBe(8000);
  });

  it('never waits more than about 6 hours, and honours a longer Retry-After', () => {
    expect(retryDelayMs(40, 30_000, 0, () => 0.5)).toBe(6 * 60 * 60_000);
    expect(retryDelayMs(1, 1000, 120_000, () => 0.5)).toBe(120_000);
  });
});
