import { isCountry, LOCALES, resolveLocale } from './locale';
import type { Brand, Country, Locale } from './types';

/** A matched brand route; `T` is what the caller keeps per brand (the brand itself, or its id and countries). */
export interface BrandRoute<T = Brand> {
  brand: T;
  locale: Locale;
  country: Country;
}

/** Route paths in one place: /:brand/:locale/:country. */
export function brandPath(brandId: string, locale: Locale, country: Country): string {
  return `/${brandId}/${locale}/${country}`;
}

/** What route matching needs of a brand: the countries its file lists. */
export interface BrandCountries {
  countries: readonly Country[];
}

/**
 * Matches /:brand/:locale/:country against the known brands. An unknown
 * locale falls back to nl; an unknown brand, a country the brand does not
 * serve, or any other shape is no brand page (null → 404).
 */
export function matchBrandRoute<T extends BrandCountries>(pathname: string, brands: ReadonlyMap<string, T>): BrandRoute<T> | null {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  if (segments.length !== 3 || segments.some((s) => s === '')) return null;
  const decoded = segments.map(safeDecode);
  if (decoded.includes(null)) return null;
  const [id, locale, country] = decoded as string[];
  const brand = brands.get(id);
  if (brand === undefined || !isCountry(country) || !brand.countries.includes(country)) return null;
  return { brand, locale: resolveLocale(locale), country };
}

/** A malformed %-escape (e.g. "/%E0/nl/be") is no brand page, not a crash. */
function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Every page a brand has: each locale × each of its countries. */
export function brandPaths(brands: Iterable<{ id: string } & BrandCountries>): string[] {
  return [...brands].flatMap(({ id, countries }) => LOCALES.flatMap((l) => countries.map((c) => brandPath(id, l, c))));
}

export function pageTitle(brand: Pick<Brand, 'name'>): string {
  return `${brand.name} | Service`;
}

/** Brands keyed by id, from parsed brand files (callers read the files). */
export function indexBrands(brands: readonly Brand[]): Map<string, Brand> {
  return new Map(brands.map((b) => [b.id, b]));
}
