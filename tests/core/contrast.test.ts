import { describe, expect, it } from 'vitest';
import { MIN_TEXT_CONTRAST, TEXT_COLOUR_PAIRS, contrastRatio } from '../../src/core/contrast';

describe('contrastRatio', () => {
  it('is 21 for black on white, either way round', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
  });

  it('is 1 for a colour on itself', () => {
    expect(contrastRatio('#5b3a8c', '#5b3a8c')).toBe(1);
  });

  it('matches known WCAG values', () => {
    // #767676 is the lightest grey that passes AA on white; #777777 just fails.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(contrastRatio('#ff0000', '#ffffff')).toBeCloseTo(4, 1);
  });

  it('accepts upper-case hex digits', () => {
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
  });
});

describe('TEXT_COLOUR_PAIRS', () => {
  it('pairs theme tokens or literal #rrggbb colours', () => {
    for (const pair of TEXT_COLOUR_PAIRS) {
      for (const token of pair) expect(token).toMatch(/^(#[0-9a-f]{6}|[a-z][A-Za-z]+)$/);
    }
  });

  it('asks for WCAG AA for normal text', () => {
    expect(MIN_TEXT_CONTRAST).toBe(4.5);
  });
});
