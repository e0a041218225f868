import { readClock } from './zone-clock';

/** Formatters are made once per Intl locale and zone: building one costs far more than using one, and every request needs one. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(intlLocale: string, options: Intl.DateTimeFormatOptions & { timeZone: string }): Intl.DateTimeFormat {
  const key = `${intlLocale}\n${options.timeZone}\n${options.dateStyle ?? ''}\n${options.timeStyle ?? ''}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(intlLocale, options);
    formats.set(key, found);
  }
  return found;
}

/** Per Intl locale and zone, the last minute written and how: requests of one minute all say the same. */
const lastMinute = new Map<string, { minute: number; text: string }>();

/** "24 november 2026 om 05:20 (UTC+01:00)" / "24 novembre 2026 à 05:20 (UTC+01:00)": the portal's clock, and which clock it is. */
export function dateTimeForPeople(ms: number, intlLocale: string, timeZone: string): string {
  // Written to the minute, and zones change their offset only on a minute's start.
  const minute = Math.floor(ms / 60_000);
  const key = `${intlLocale}\n${timeZone}`;
  const last = lastMinute.get(key);
  if (last?.minute === minute) return last.text;
  const text = `${formatOf(intlLocale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(ms)} (UTC${readClock(ms, timeZone).offset})`;
  lastMinute.set(key, { minute, text });
  return text;
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

/** Dates written out, per Intl locale and date: Intl's format cost a tenth of composing a request's mails. */
const writtenDates = new Map<string, string>();

/** Date fields are free text; an ISO date (what a date picker sends) is written out, anything else kept. */
export function dateTextForPeople(text: string, intlLocale: string): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!iso) return text;
  const key = `${intlLocale}\n${text}`;
  const written = writtenDates.get(key);
  if (written !== undefined) return written;
  const date = new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])));
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(text)) return text; // 2024-02-31
  // Customers' dates are few (purchases of the last years); the map is emptied should a flood of others fill it.
  if (writtenDates.size >= 10_000) writtenDates.clear();
  const out = formatOf(intlLocale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  writtenDates.set(key, out);
  return out;
}
