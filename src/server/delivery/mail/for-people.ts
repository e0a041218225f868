import type { Locale } from '../../../core/types';
import { readClock } from '../../../core/zone-clock';

const INTL_LOCALE: Record<Locale, string> = { nl: 'nl-BE', fr: 'fr-BE' };

// Made once per zone: building a formatter costs far more than using one, and every request needs one.
const dateTimes = new Map<string, Record<Locale, Intl.DateTimeFormat>>();

function dateTimeFormatsOf(timeZone: string): Record<Locale, Intl.DateTimeFormat> {
  let found = dateTimes.get(timeZone);
  if (!found) {
    found = Object.fromEntries(
      Object.entries(INTL_LOCALE).map(([locale, tag]) => [locale, new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'short', timeZone })]),
    ) as Record<Locale, Intl.DateTimeFormat>;
    dateTimes.set(timeZone, found);
  }
  return found;
}

/** "24 november 2026 om 05:20 (UTC+01:00)" / "24 novembre 2026 à 05:20 (UTC+01:00)": the portal's clock, and which clock it is. */
export function dateTimeForPeople(ms: number, locale: Locale, timeZone: string): string {
  return `${dateTimeFormatsOf(timeZone)[locale].format(ms)} (UTC${readClock(ms, timeZone).offset})`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A mail's Date header (RFC 5322 §3.3) on the portal's clock: `Tue, 24 Nov 2026 05:20:00 +0100`. */
export function mailDate(ms: number, timeZone: string): string {
  const c = readClock(ms, timeZone);
  // The weekday of the zone's date: that calendar day, taken at noon UTC, has the same weekday everywhere.
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(c.year), Number(c.month) - 1, Number(c.day), 12)).getUTCDay()];
  return `${weekday}, ${c.day} ${MONTHS[Number(c.month) - 1]} ${c.year} ${c.hour}:${c.minute}:${c.second} ${c.offset.replace(':', '')}`;
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
