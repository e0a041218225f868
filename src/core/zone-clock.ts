/** A moment as a zone's clock showed it: zero-padded date and time parts, and the zone's offset from UTC then. */
export interface ClockReading {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  /** `+01:00`, `-03:30`, `+00:00`: summer time included. */
  offset: string;
}

// One formatter per zone: making one costs far more than using it, and every mail and exported row reads the clock.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
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
    formats.set(timeZone, format);
  }
  return format;
}

/** Reads `ms` on the clock of `timeZone` (an IANA zone the caller has checked). */
export function readClock(ms: number, timeZone: string): ClockReading {
  const part = Object.fromEntries(formatOf(timeZone).formatToParts(ms).map((p) => [p.type, p.value]));
  // longOffset says "GMT+01:00", and plain "GMT" where the offset is zero.
  const offset = part.timeZoneName.replace('GMT', '') || '+00:00';
  return { year: part.year, month: part.month, day: part.day, hour: part.hour, minute: part.minute, second: part.second, offset };
}
