import { MIN_TEXT_CONTRAST, TEXT_COLOUR_PAIRS, contrastRatio } from '../contrast.ts';
import type { BrandTheme } from '../types.ts';
import { toPointer } from './problem.ts';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * WCAG AA contrast of each text/background pair of a theme. A '#…' entry is
 * a literal colour (e.g. links on the white page); a missing optional token
 * is skipped, and so is a malformed one (the schema check reports it). Each
 * message names the brand file's keys that can change and, for each, the
 * nearest colour that would pass.
 */
export function themeContrastProblems(theme: Partial<BrandTheme>): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  for (const [fore, back] of TEXT_COLOUR_PAIRS) {
    const text = colourOf(theme, fore);
    const background = colourOf(theme, back);
    if (!text || !background) continue;
    const ratio = contrastRatio(text, background);
    if (ratio >= MIN_TEXT_CONTRAST) continue;
    const fixed = back.startsWith('#');
    const where = fixed ? `the white page (${background}), which no key of the brand file changes,` : `theme.${back} (${background})`;
    const changes = [`theme.${fore} to ${passingColour(text, background)}`, ...(fixed ? [] : [`theme.${back} to ${passingColour(background, text)}`])];
    problems.push({
      pointer: toPointer(['theme', fore]),
      message:
        `theme.${fore} (${text}) is text on ${where} with a contrast of ${floor2(ratio)}:1; it must be at least ` +
        `${MIN_TEXT_CONTRAST}:1 so that everyone can read it. Change ${changes.join(' or ')} (${changes.length === 1 ? 'the nearest colour that passes' : 'each the nearest colour that passes'}).`,
    });
  }
  return problems;
}

function colourOf(theme: Partial<BrandTheme>, token: string): string | undefined {
  const value = token.startsWith('#') ? token : theme[token as keyof BrandTheme];
  return typeof value === 'string' && COLOUR.test(value) ? value : undefined;
}

/** The colour nearest `colour` (darker or lighter, same hue) that has enough contrast with `against`. */
export function passingColour(colour: string, against: string): string {
  const channels = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const toward = (target: number, step: number) =>
    `#${channels.map((c) => Math.round(c + (target - c) * step).toString(16).padStart(2, '0')).join('')}`;
  for (let step = 1; step <= 100; step++) {
    for (const target of [0, 255]) {
      const candidate = toward(target, step / 100);
      if (contrastRatio(candidate, against) >= MIN_TEXT_CONTRAST) return candidate;
    }
  }
  return contrastRatio('#000000', against) >= contrastRatio('#ffffff', against) ? '#000000' : '#ffffff';
}

/** Rounded down, so 4.499 never prints as a passing 4.5. */
function floor2(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}
