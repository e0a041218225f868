import type { IncomingHttpHeaders } from 'node:http';
import { FALLBACK_LOCALE, type Languages } from '../core/texts';
import type { Locale } from '../core/types';

/** The language a request asks for (X-Portal-Locale, as the page sends it) if there is one of it; else the fallback's. */
export function askedLocale(headers: IncomingHttpHeaders, languages: Languages): Locale {
  const asked = headers['x-portal-locale']?.toString().toLowerCase() ?? '';
  return languages.has(asked) ? asked : FALLBACK_LOCALE;
}
