import type { Country, Locale } from './types';

export const LOCALES: readonly Locale[] = ['nl', 'fr'];
export const DEFAULT_LOCALE: Locale = 'nl';
export const COUNTRIES: readonly Country[] = ['be', 'fr', 'nl', 'lu'];

/** nl is the default and the fallback for anything that is not a supported locale. */
export function resolveLocale(value: string | undefined | null): Locale {
  const lower = value?.toLowerCase();
  return LOCALES.find((l) => l === lower) ?? DEFAULT_LOCALE;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}
