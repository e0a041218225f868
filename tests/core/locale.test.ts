import { describe, expect, it } from 'vitest';
import { COUNTRIES, DEFAULT_LOCALE, LOCALES, isCountry, isLocale, resolveLocale } from '../../src/core/locale';

describe('resolveLocale', () => {
  it.each([
    ['nl', 'nl'],
    ['fr', 'fr'],
    ['FR', 'fr'],
    ['de', 'nl'],
    ['', 'nl'],
    [undefined, 'nl'],
    [null, 'nl'],
    ['fr-BE', 'nl'],
  ])('%s → %s', (value, expected) => {
    expect(resolveLocale(value)).toBe(expected);
  });

  it('has Dutch as the default', () => {
    expect(DEFAULT_LOCALE).toBe('nl');
    expect(LOCALES).toEqual(['nl', 'fr']);
  });
});

describe('isLocale and isCountry', () => {
  it('accept exactly the supported values', () => {
    expect(LOCALES.every(isLocale)).toBe(true);
    expect(COUNTRIES).toEqual(['be', 'fr', 'nl', 'lu']);
    expect(COUNTRIES.every(isCountry)).toBe(true);
    for (const other of ['de', 'NL', '', 'toString', 1, null, undefined]) {
      expect(isLocale(other)).toBe(false);
      expect(isCountry(other)).toBe(false);
    }
  });
});
