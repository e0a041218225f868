/**
 * `2026-11-25 05:44:09 +01:00`: a moment as the clock in `timeZone` showed
 * it, with that zone's offset then, so a spreadsheet shows the time the desk
 * lives by and sorts it as text, and nobody has to guess summer time.
 */
export function timeWithOffset(timeZone: string): (ms: number) => string {
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
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second} ${offset}`;
  };
}
