import { describe, expect, it } from 'vitest';
import { InFlightPace } from '../../../src/server/outbox/in-flight-pace';

describe('InFlightPace', () => {
  it('keeps the fewest under way until the pace is known, then as many as the pace allows, within its bounds', () => {
    const pace = new InFlightPace({ min: 4, max: 20, steadyMs: 800 });
    expect(pace.limit).toBe(4);
    for (let i = 0; i < 30; i++) pace.took(200);
    expect(pace.limit).toBe(4);
    for (let i = 0; i < 60; i++) pace.took(64);
    expect(pace.limit).toBe(12);
    for (let i = 0; i < 30; i++) pace.took(5);
    expect(pace.limit).toBe(20);
    for (let i = 0; i < 30; i++) pace.took(2_000);
    expect(pace.limit).toBe(4);
  });

  it('never more than its maximum, even below its minimum', () => {
    const pace = new InFlightPace({ min: 4, max: 2, steadyMs: 800 });
    expect(pace.limit).toBe(2);
    pace.took(1);
    expect(pace.limit).toBe(2);
  });
});
