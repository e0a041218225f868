import { readClock } from '../../core/zone-clock';

/**
 * `2026-11-25 05:44:09 +01:00`: a moment as the clock in `timeZone` showed
 * it, with that zone's offset then, so a spreadsheet shows the time the desk
 * lives by and sorts it as text, and nobody has to guess summer time.
 * `iso: true` writes the same moment in ISO 8601 (`2026-11-25T05:44:09+01:00`), for JSON.
 */
export function timeWithOffset(timeZone: string, { iso = false } = {}): (ms: number) => string {
  return (ms) => {
    const c = readClock(ms, timeZone);
    const [date, time] = [`${c.year}-${c.month}-${c.day}`, `${c.hour}:${c.minute}:${c.second}`];
    return iso ? `${date}T${time}${c.offset}` : `${date} ${time} ${c.offset}`;
  };
}
