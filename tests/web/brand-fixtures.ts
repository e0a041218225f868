import { brandRoutes, loadBrand } from '../../src/web/app/brands';
import type { Brand, Locale } from '../../src/core/types';
import fr from '../fixtures/schemas/spec/i18n/fr.json';
import nl from '../fixtures/schemas/spec/i18n/nl.json';

/** The spec's six brand files (tests/fixtures/brands/spec: vitest.config.ts) as the page loads them (import.meta.glob in src/web/app/brands.ts), loaded up front. */
export const BRANDS: Brand[] = (await Promise.all([...brandRoutes.keys()].map(loadBrand))).sort((a, b) => a.id.localeCompare(b.id));
const brands = new Map(BRANDS.map((b) => [b.id, b]));
export const TEXTS: Record<Locale, typeof fr> = { nl, fr };
export const LOCALE_CASES: [string, Locale][] = BRANDS.flatMap((b) => (['nl', 'fr'] as const).map((l): [string, Locale] => [b.id, l]));

export function brand(id: string): Brand {
  const found = brands.get(id);
  if (!found) throw new Error(`no brand ${id}`);
  return found;
}
