// The extension: vite.config.ts loads this module (through src/cli/validate).
import { FALLBACK_LOCALE } from './texts.ts';
import type { Locale } from './types';

/** What of a brand its languages depend on: its file's `locales`. */
export interface LocaleOffer {
  locales?: readonly Locale[];
}

export { FALLBACK_LOCALE };

/** What a brand offers when its file names no languages: the spec's two. */
export const DEFAULT_LOCALES: readonly Locale[] = ['nl', 'fr'];

/** The languages a brand's pages offer, in its file's order. */
export function brandLocales(brand: LocaleOffer): readonly Locale[] {
  return brand.locales?.length ? brand.locales : DEFAULT_LOCALES;
}

/** A brand's default language: Dutch where it offers Dutch (the spec's default), else its first. */
export function brandDefaultLocale(brand: LocaleOffer): Locale {
  const offered = brandLocales(brand);
  return offered.includes(FALLBACK_LOCALE) ? FALLBACK_LOCALE : offered[0];
}

/**
 * The page language for a route's locale segment: one the brand offers (any
 * case); a language of the portal the brand does not offer is no page
 * (null → 404); anything else falls back to the brand's default language.
 */
export function routeLocale(segment: string, brand: LocaleOffer, languages: ReadonlySet<Locale>): Locale | null {
  const lower = segment.toLowerCase();
  if (brandLocales(brand).includes(lower)) return lower;
  return languages.has(lower) ? null : brandDefaultLocale(brand);
}

/** A request's language as sent (`value`), if the brand offers it; else `fallback`. */
export function offeredLocale(value: unknown, brand: LocaleOffer, fallback: Locale): Locale {
  return typeof value === 'string' && brandLocales(brand).includes(value) ? value : fallback;
}
