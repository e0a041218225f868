import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandPath, brandPaths, indexBrands, matchBrandRoute as match, pageTitle } from '../../src/core/brands';
import { DEFAULT_LOCALES } from '../../src/core/locale';
import type { Brand } from '../../src/core/types';
import { SPEC_BRANDS_DIR } from '../support/data-folders';

// The spec's brands, read like the CLI does (core itself never touches the file system).
const brandList = readdirSync(SPEC_BRANDS_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(SPEC_BRANDS_DIR, f), 'utf8')) as Brand);
const brands = indexBrands(brandList);
const SIX = ['kuppersbusch', 'teka', 'ilve', 'hanant', 'airodesign', 'fratelli'];
const COUNTRIES = ['be', 'fr', 'nl', 'lu'];
// The portal's languages: German is one, which the six brands do not offer.
const LANGUAGES = new Set(['nl', 'fr', 'de']);
const matchBrandRoute = (path: string, index: ReadonlyMap<string, Brand>) => match(path, index, LANGUAGES);

describe('indexBrands', () => {
  it('keys every brand file by its id', () => {
    expect([...brands.keys()].sort()).toEqual([...SIX].sort());
    expect(brands.get('teka')?.name).toBe('Teka');
  });
});

describe('matchBrandRoute', () => {
  const all = SIX.flatMap((id) => DEFAULT_LOCALES.flatMap((locale) => COUNTRIES.map((country) => [id, locale, country] as const)));

  it.each(all)('matches /%s/%s/%s', (id, locale, country) => {
    expect(matchBrandRoute(`/${id}/${locale}/${country}`, brands)).toEqual({ brand: brands.get(id), locale, country });
  });

  it.each(['en', 'NL-be', 'xx'])('falls back to nl for %s, which is no language of the portal', (locale) => {
    expect(matchBrandRoute(`/teka/${locale}/be`, brands)?.locale).toBe('nl');
  });

  it('is no page for a language of the portal the brand does not offer, and a page where it does', () => {
    expect(matchBrandRoute('/teka/de/be', brands)).toBeNull();
    const german = indexBrands([{ ...brands.get('teka')!, locales: ['nl', 'fr', 'de'] }]);
    expect(matchBrandRoute('/teka/de/be', german)).toMatchObject({ locale: 'de', country: 'be' });
    expect(brandPaths(german.values())).toContain('/teka/de/lu');
  });

  it('accepts a locale in capitals and a trailing slash', () => {
    expect(matchBrandRoute('/teka/FR/be/', brands)).toMatchObject({ locale: 'fr', country: 'be' });
  });

  it('decodes %-escapes in segments', () => {
    expect(matchBrandRoute('/%74eka/nl/be', brands)?.brand.id).toBe('teka');
  });

  it.each([
    ['an unknown brand', '/miele/nl/be'],
    ['an unknown country', '/teka/nl/de'],
    ['a missing country', '/teka/nl'],
    ['a missing locale and country', '/teka'],
    ['an empty segment', '/teka//be'],
    ['an extra segment', '/teka/nl/be/extra'],
    ['the root', '/'],
    ['the empty path', ''],
    ['a malformed %-escape', '/teka/%E0%A4%A/be'],
    ['a lone %', '/%/nl/be'],
    ['a prototype key as brand', '/constructor/nl/be'],
  ])('is null for %s (%s)', (_label, path) => {
    expect(matchBrandRoute(path, brands)).toBeNull();
  });
});

describe('countries per brand', () => {
  const twoCountries = indexBrands([{ ...brands.get('fratelli')!, countries: ['be', 'lu'] }]);

  it('matches only the countries the brand file lists, in both languages', () => {
    expect(matchBrandRoute('/fratelli/fr/lu', twoCountries)).toMatchObject({ locale: 'fr', country: 'lu' });
    expect(matchBrandRoute('/fratelli/nl/be', twoCountries)).toMatchObject({ locale: 'nl', country: 'be' });
    expect(matchBrandRoute('/fratelli/nl/nl', twoCountries)).toBeNull();
    expect(matchBrandRoute('/fratelli/fr/fr', twoCountries)).toBeNull();
  });

  it('lists each page a brand has: each locale × each of its countries', () => {
    expect(brandPaths(twoCountries.values())).toEqual(['/fratelli/nl/be', '/fratelli/nl/lu', '/fratelli/fr/be', '/fratelli/fr/lu']);
  });
});

describe('brandPath', () => {
  it('builds /:brand/:locale/:country, which matchBrandRoute reads back', () => {
    expect(brandPath('kuppersbusch', 'fr', 'lu')).toBe('/kuppersbusch/fr/lu');
    expect(matchBrandRoute(brandPath('hanant', 'fr', 'nl'), brands)).toMatchObject({ locale: 'fr', country: 'nl' });
  });
});

describe('pageTitle', () => {
  it.each(brandList.map((b) => [b.id, b.name]))('is "{Brand} | Service" for %s', (_id, name) => {
    expect(pageTitle({ name })).toBe(`${name} | Service`);
  });
});
