import { describe, expect, it } from 'vitest';
import { timeWithOffset } from '../../../src/cli/requests/time-with-offset';

const WINTER = Date.UTC(2026, 10, 25, 4, 44, 9); // 25 November 2026, 04:44:09 UTC
const SUMMER = Date.UTC(2026, 6, 1, 22, 30, 0); // 1 July 2026, 22:30 UTC: already 2 July in Brussels

describe('times in the export', () => {
  it('are the clock of the portal’s time zone with its offset then, winter and summer', () => {
    const brussels = timeWithOffset('Europe/Brussels');
    expect(brussels(WINTER)).toBe('2026-11-25 05:44:09 +01:00');
    expect(brussels(SUMMER)).toBe('2026-07-02 00:30:00 +02:00');
    expect(Date.parse(brussels(SUMMER).replace(' ', 'T').replace(' ', ''))).toBe(SUMMER);
  });

  it('write a zero offset and offsets west of UTC and in half hours', () => {
    expect(timeWithOffset('UTC')(WINTER)).toBe('2026-11-25 04:44:09 +00:00');
    expect(timeWithOffset('America/St_Johns')(WINTER)).toBe('2026-11-25 01:14:09 -03:30');
    expect(timeWithOffset('Asia/Kolkata')(WINTER)).toBe('2026-11-25 10:14:09 +05:30');
  });
});
