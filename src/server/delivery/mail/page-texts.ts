import type { Locale } from '../../../core/types';
import fr from '../../../../schemas/i18n/fr.json';
import nl from '../../../../schemas/i18n/nl.json';

interface PageTexts {
  fields: Record<string, string>;
  fieldsShort: Record<string, string>;
  optional: string;
  countries: Record<string, string>;
}

// The desk reads the labels and country names the customer saw: the page's own translations (data only).
const texts: Record<Locale, PageTexts> = { nl, fr };

/** A field's label as the form shows it, without the "(optional)" hint; undefined if the form has none. */
export function fieldLabel(field: string, locale: Locale): string | undefined {
  const t = texts[locale];
  const label = t.fieldsShort[field] ?? t.fields[field];
  return label?.replace(` ${t.optional}`, '');
}

export function countryName(code: string, locale: Locale): string {
  return texts[locale].countries[code] ?? code;
}
