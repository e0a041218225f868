import { describe, expect, it } from 'vitest';
import { brandDefaultLocale, brandLocales, DEFAULT_LOCALES, FALLBACK_LOCALE, offeredLocale, routeLocale } from '../../src/core/locale';

const portalLanguages = new Set(['nl', 'fr', 'de']);

describe('a brand\'s languages', () => {
  it('are Dutch and French unless its file says otherwise, Dutch first', () => {
    expect(FALLBACK_LOCALE).toBe('nl');
    expect(DEFAULT_LOCALES).toEqual(['nl', 'fr']);
    expect(brandLocales({})).toEqual(['nl', 'fr']);
    expect(brandLocales({ locales: ['fr', 'de'] })).toEqual(['fr', 'de']);
    expect(brandDefaultLocale({})).toBe('nl');
    expect(brandDefaultLocale({ locales: ['fr', 'nl'] })).toBe('nl');
    expect(brandDefaultLocale({ locales: ['de', 'fr'] })).toBe('de');
  });
});

describe('routeLocale', () => {
  it.each([
    ['nl', {}, 'nl'],
    ['fr', {}, 'fr'],
    ['FR', {}, 'fr'],
    ['de', {}, null],
    ['de', { locales: ['nl', 'fr', 'de'] }, 'de'],
    ['en', {}, 'nl'],
    ['', {}, 'nl'],
    ['fr-BE', {}, 'nl'],
    ['toString', {}, 'nl'],
    ['en', { locales: ['de'] }, 'de'],
  ])('%s for %j → %s: a portal language the brand does not offer is no page; anything else falls back', (segment, brand, expected) => {
    expect(routeLocale(segment, brand, portalLanguages)).toBe(expected);
  });
});

describe('offeredLocale', () => {
  it('takes a request\'s language only if the brand offers it', () => {
    expect(offeredLocale('fr', {}, 'nl')).toBe('fr');
    expect(offeredLocale('de', {}, 'nl')).toBe('nl');
    expect(offeredLocale('de', { locales: ['nl', 'de'] }, 'nl')).toBe('de');
    for (const other of [undefined, null, 1, 'toString', '']) expect(offeredLocale(other, {}, 'fr')).toBe('fr');
  });
});
