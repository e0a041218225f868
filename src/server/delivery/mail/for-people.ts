import type { Locale } from '../../../core/types';

const INTL_LOCALE: Record<Locale, string> = { nl: 'nl-BE', fr: 'fr-BE' };

interface ZoneFormatters {
  dateTime: Record<Locale, Intl.DateTimeFormat>;
  /** Numeric parts and the offset, for the offset and the mail's Date header. */
  parts: Intl.DateTimeFormat;
}

// Made once per zone: building a formatter costs far more than using one, and every request needs one.
const zones = new Map<string, ZoneFormatters>();

function formattersOf(timeZone: string): ZoneFormatters {
  let found = zones.get(timeZone);
  if (!found) {
    const dateTime = Object.fromEntries(
      Object.entries(INTL_LOCALE).map(([locale, tag]) => [locale, new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'short', timeZone })]),
    ) as Record<Locale, Intl.DateTimeFormat>;
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    found = { dateTime, parts };
    zones.set(timeZone, found);
  }
  return found;
}

function partsAt(ms: number, timeZone: string): Record<string, string> {
  return Object.fromEntries(formattersOf(timeZone).parts.formatToParts(ms).map((p) => [p.type, p.value]));
}

/** `+01:00`: the zone's offset from UTC at that moment (summer time included). */
export function offsetAt(ms: number, timeZone: string): string {
  // longOffset says "GMT+01:00", and plain "GMT" where the offset is zero.
  return partsAt(ms, timeZone).timeZoneName.replace('GMT', '') || '+00:00';
}

/** "24 november 2026 om 05:20 (UTC+01:00)" / "24 novembre 2026 à 05:20 (UTC+01:00)": the portal's clock, and which clock it is. */
export function dateTimeForPeople(ms: number, locale: Locale, timeZone: string): string {
  return `${formattersOf(timeZone).dateTime[locale].format(ms)} (UTC${offsetAt(ms, timeZone)})`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A mail's Date header (RFC 5322 §3.3) on the portal's clock: `Tue, 24 Nov 2026 05:20:00 +0100`. */
export function mailDate(ms: number, timeZone: string): string {
  const p = partsAt(ms, timeZone);
  const offset = (p.timeZoneName.replace('GMT', '') || '+00:00').replace(':', '');
  // The weekday of the zone's date: that calendar day, taken at noon UTC, has the same weekday everywhere.
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), 12)).getUTCDay()];
  return `${weekday}, ${p.day.padStart(2, '0')} ${MONTHS[Number(p.month) - 1]} ${p.year} ${p.hour}:${p.minute}:${p.second} ${offset}`;
}

const DATE = Object.fromEntries(
  Object.entries(INTL_LOCALE).map(([locale, tag]) => [locale, new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })]),
) as Record<Locale, Intl.DateTimeFormat>;

/** Date fields are free text; an ISO date (what a date picker sends) is written out, anything else kept. */
export function dateTextForPeople(text: string, locale: Locale): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!iso) return text;
  const date = new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])));
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(text)) return text; // 2024-02-31
  return DATE[locale].format(date);
}
