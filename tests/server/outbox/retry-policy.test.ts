import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../../src/server/outbox/retry-policy';
import { retryAfter } from '../../../src/server/delivery/webhook/webhook-sender';

describe('retryDelayMs', () => {
  it('doubles per attempt, spread by jitter between half and one and a half times', () => {
    expect(retryDelayMs(1, 1000, 0, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, 0, () => 0.999)).toBe(1499);
    expect(retryDelayMs(4, 1000, 0, () => 0.5)).toBe(8000);
  });

  it('never waits more than about 30 minutes, and honours a longer Retry-After up to that', () => {
    expect(retryDelayMs(40, 30_000, 0, () => 0.5)).toBe(30 * 60_000);
    expect(retryDelayMs(40, 30_000, 0, () => 0.999)).toBeLessThan(45 * 60_000);
    expect(retryDelayMs(1, 1000, 120_000, () => 0.5)).toBe(120_000);
    expect(retryDelayMs(1, 1000, 24 * 60 * 60_000, () => 0.5)).toBe(30 * 60_000);
  });
});

describe('Retry-After from a webhook receiver', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  it('reads delay-seconds and an HTTP date; ignores anything else', () => {
    expect(retryAfter('120', now)).toBe(120_000);
    expect(retryAfter('Tue, 24 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(retryAfter('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfter('soon', now)).toBeUndefined();
    expect(retryAfter('-5', now)).toBeUndefined();
    expect(retryAfter('2026-11-24T10:05:00Z', now)).toBeUndefined();
  });
});
