import { MIN_TEXT_CONTRAST, TEXT_COLOUR_PAIRS, contrastRatio } from '../../core/contrast.ts';
import type { BrandTheme } from '../../core/types.ts';
import { toPointer } from './problem.ts';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * WCAG AA contrast of each text/background pair of a theme. A '#…' entry is
 * a literal colour (e.g. links on the white page); a missing optional token
 * is skipped, and so is a malformed one (the schema check reports it).
 */
export function themeContrastProblems(theme: Partial<BrandTheme>): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  for (const [fore, back] of TEXT_COLOUR_PAIRS) {
    const text = colourOf(theme, fore);
    const background = colourOf(theme, back);
    if (!text || !background) continue;
    const ratio = contrastRatio(text, background);
    if (ratio >= MIN_TEXT_CONTRAST) continue;
    problems.push({
      pointer: toPointer(['theme', fore]),
      message:
        `the text colour ${fore} (${text}) on ${describeBackground(back)} (${background}) has a contrast of ` +
        `${floor2(ratio)}:1; it must be at least ${MIN_TEXT_CONTRAST}:1 so that everyone can read it. ` +
        'Make one of the two colours darker or lighter.',
    });
  }
  return problems;
}

function colourOf(theme: Partial<BrandTheme>, token: string): string | undefined {
  const value = token.startsWith('#') ? token : theme[token as keyof BrandTheme];
  return typeof value === 'string' && COLOUR.test(value) ? value : undefined;
}

function describeBackground(token: string): string {
  return token.startsWith('#') ? 'the page background' : `the background ${token}`;
}

/** Rounded down, so 4.499 never prints as a passing 4.5. */
function floor2(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}
