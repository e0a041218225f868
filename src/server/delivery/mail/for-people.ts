import type { Locale } from '../../../core/types';

const INTL_LOCALE: Record<Locale, string> = { nl: 'nl-BE', fr: 'fr-BE' };
/** The portal's time zone: the brands serve Belgium, the Netherlands, Luxembourg and France, one time zone. */
export const TIME_ZONE = 'Europe/Brussels';

// Made once: building a formatter costs far more than using one, and every request needs one.
const formatters = (options: Intl.DateTimeFormatOptions) =>
  Object.fromEntries(Object.entries(INTL_LOCALE).map(([locale, tag]) => [locale, new Intl.DateTimeFormat(tag, options)])) as Record<
    Locale,
    Intl.DateTimeFormat
  >;
const DATE_TIME = formatters({ dateStyle: 'long', timeStyle: 'short', timeZone: TIME_ZONE });
const DATE = formatters({ dateStyle: 'long', timeZone: 'UTC' });

/** "24 november 2026 om 05:20" / "24 novembre 2026 à 05:20". */
export function dateTimeForPeople(ms: number, locale: Locale): string {
  return DATE_TIME[locale].format(ms);
}

/** Date fields are free text; an ISO date (what a date picker sends) is written out, anything else kept. */
export function dateTextForPeople(text: string, locale: Locale): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!iso) return text;
  const date = new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])));
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(text)) return text; // 2024-02-31
  return DATE[locale].format(date);
}
