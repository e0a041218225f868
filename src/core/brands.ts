import { brandLocales, routeLocale } from './locale';
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

/** The query of the confirmation's "new request" link: the page forgets the request sent (server and tab alike). */
export const NEW_REQUEST_QUERY = 'new';

/** The brand page asked for a new request: where the confirmation's link leads. */
export function newRequestPath(brandId: string, locale: Locale, country: Country): string {
  return `${brandPath(brandId, locale, country)}?${NEW_REQUEST_QUERY}`;
}

/** What route matching needs of a brand: the countries and languages its file lists. */
export interface BrandPages {
  countries: readonly Country[];
  locales?: readonly Locale[];
}

/**
 * Matches /:brand/:locale/:country against the known brands. A locale that is
 * no language of the portal (`languages`) falls back to the brand's default
 * (Dutch); an unknown brand, a country or portal language the brand does not
 * offer, or any other shape is no brand page (null → 404).
 */
export function matchBrandRoute<T extends BrandPages>(
  pathname: string,
  brands: ReadonlyMap<string, T>,
  languages: ReadonlySet<Locale>,
): BrandRoute<T> | null {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  if (segments.length !== 3 || segments.some((s) => s === '')) return null;
  const decoded = segments.map(safeDecode);
  if (decoded.includes(null)) return null;
  const [id, locale, country] = decoded as string[];
  const brand = brands.get(id);
  if (brand === undefined || !brand.countries.includes(country)) return null;
  const pageLocale = routeLocale(locale, brand, languages);
  return pageLocale === null ? null : { brand, locale: pageLocale, country };
}

/** A malformed %-escape (e.g. "/%E0/nl/be") is no brand page, not a crash. */
function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Every page a brand has: each of its locales × each of its countries. */
export function brandPaths(brands: Iterable<{ id: string } & BrandPages>): string[] {
  return [...brands].flatMap((b) => brandLocales(b).flatMap((l) => b.countries.map((c) => brandPath(b.id, l, c))));
}

export function pageTitle(brand: Pick<Brand, 'name'>): string {
  return `${brand.name} | Service`;
}

/** Brands keyed by id, from parsed brand files (callers read the files). */
export function indexBrands(brands: readonly Brand[]): Map<string, Brand> {
  return new Map(brands.map((b) => [b.id, b]));
}
