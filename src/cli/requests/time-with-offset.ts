/**
 * `2026-11-25 05:44:09 +01:00`: a moment as the clock in `timeZone` showed
 * it, with that zone's offset then, so a spreadsheet shows the time the desk
 * lives by and sorts it as text, and nobody has to guess summer time.
 * `iso: true` writes the same moment in ISO 8601 (`2026-11-25T05:44:09+01:00`), for JSON.
 */
export function timeWithOffset(timeZone: string, { iso = false } = {}): (ms: number) => string {
  // One formatter for the whole export: making one costs far more than using it.
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return (ms) => {
    const part = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
    // longOffset says "GMT+01:00", and plain "GMT" where the offset is zero.
    const offset = part.timeZoneName.replace('GMT', '') || '+00:00';
    const [date, time] = [`${part.year}-${part.month}-${part.day}`, `${part.hour}:${part.minute}:${part.second}`];
    return iso ? `${date}T${time}${offset}` : `${date} ${time} ${offset}`;
  };
}
