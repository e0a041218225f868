import { contrastRatio } from '../../core/contrast.ts';
import type { Brand, BrandTheme } from '../../core/types.ts';

/** Theme tokens → the CSS custom properties styles.css reads. */
export function themeProperties(theme: BrandTheme): Record<string, string> {
  return {
    '--primary': theme.primary,
    '--on-primary': theme.onPrimary,
    '--header-bg': theme.headerBackground,
    '--header-fg': theme.headerText,
    // A header that blends into the white page gets a thin line under it; a coloured one stands out by itself.
    '--header-border': contrastRatio(theme.headerBackground, '#ffffff') < 1.5 ? '#d0d0d0' : theme.headerBackground,
    '--banner-bg': theme.bannerBackground ?? theme.headerBackground,
    '--banner-fg': theme.bannerText ?? theme.headerText,
    '--footer-bg': theme.footerBackground,
    '--footer-fg': theme.footerText,
  };
}

const cssValue = /^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]+$|^(rgb|hsl)a?\([\d\s.,%/]+\)$/;

/**
 * One rule per brand on the class BrandPage sets (`.brand-page--<id>`).
 * Shipped as a stylesheet, not as style="" attributes, because the portal's
 * CSP (style-src 'self') blocks inline styles in prerendered HTML.
 */
export function brandThemeCss(brands: readonly Pick<Brand, 'id' | 'theme'>[]): string {
  return brands
    .map(({ id, theme }) => {
      const props = Object.entries(themeProperties(theme)).map(([name, value]) => {
        if (!cssValue.test(value)) throw new Error(`brands/${id}.json: theme colour "${value}" is not a CSS colour`);
        return `  ${name}: ${value};`;
      });
      return `.brand-page--${id.replace(/[^a-z0-9-]/gi, '')} {\n${props.join('\n')}\n}`;
    })
    .join('\n');
}
