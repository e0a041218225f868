import { readFileSync } from 'node:fs';
import type { Locale } from '../../core/types';

interface PageTexts {
  fields: Record<string, string>;
  fieldsShort: Record<string, string>;
  optional: string;
  countries: Record<string, string>;
}

// The desk reads the labels and country names the customer saw: the page's own translation
// files, read as data (the server never imports page code).
const texts = Object.fromEntries(
  (['nl', 'fr'] as const).map((locale) => [
    locale,
    JSON.parse(readFileSync(new URL(`../../web/i18n/${locale}.json`, import.meta.url), 'utf8')) as PageTexts,
  ]),
) as Record<Locale, PageTexts>;

/** A field's label as the form shows it, without the "(optional)" hint; undefined if the form has none. */
export function fieldLabel(field: string, locale: Locale): string | undefined {
  const t = texts[locale];
  const label = t.fieldsShort[field] ?? t.fields[field];
  return label?.replace(` ${t.optional}`, '');
}

export function countryName(code: string, locale: Locale): string {
  return texts[locale].countries[code] ?? code;
}
