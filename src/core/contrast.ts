/** WCAG 2.x contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Theme pairs that carry text, as [foreground, background] token names. */
export const TEXT_COLOUR_PAIRS = [
  ['onPrimary', 'primary'],
  ['headerText', 'headerBackground'],
  ['bannerText', 'bannerBackground'],
  ['footerText', 'footerBackground'],
  ['primary', '#ffffff'],
] as const;

export const MIN_TEXT_CONTRAST = 4.5;
