import { join, sep } from 'node:path';
import type { Plugin } from 'vite';
import type { Brand } from '../../core/types.ts';
import { brandThemeCss } from '../../web/app/brand-theme-css.ts';
import { checkedBrands } from '../checked-brands.ts';

/** A virtual module generated from the checked brand files; it rebuilds when one changes. */
function brandModule(name: string, id: string, generate: (brands: Brand[]) => string, root: string): Plugin {
  const resolved = `\0${id}`;
  return {
    name,
    resolveId: (source) => (source === id ? resolved : undefined),
    load(loadId) {
      if (loadId !== resolved) return undefined;
      const { files, brands } = checkedBrands(root);
      for (const file of files) this.addWatchFile(file);
      return generate(brands);
    },
  };
}

/**
 * `virtual:brand-themes.css`: each brand's theme colours as custom properties
 * on `.brand-page--<id>`. A stylesheet rather than style attributes, so
 * prerendered pages pass the CSP (style-src 'self').
 */
export const brandThemes = (root: string): Plugin =>
  brandModule('repair-portal:brand-themes', 'virtual:brand-themes.css', brandThemeCss, root);

/**
 * `virtual:brand-routes`: each brand's id and countries, so the page matches
 * routes (and 404s the rest) without downloading every brand file.
 */
export const brandRoutes = (root: string): Plugin =>
  brandModule(
    'repair-portal:brand-routes',
    'virtual:brand-routes',
    (brands) => `export default ${JSON.stringify(brands.map(({ id, countries }) => ({ id, countries })))};`,
    root,
  );

/**
 * The page gets brand files without their `serviceDesk`: where requests are
 * delivered (desk addresses, webhook URL) is the server's business, not
 * something to publish in every visitor's JavaScript.
 */
export function brandFilesWithoutDesk(root: string): Plugin {
  const brandsDir = join(root, 'brands') + sep;
  return {
    name: 'repair-portal:brand-files-without-desk',
    // Before Vite's JSON plugin turns the file into a module.
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(brandsDir) || !id.endsWith('.json')) return undefined;
      const { serviceDesk: _private, ...brand } = JSON.parse(code) as Record<string, unknown>;
      return { code: JSON.stringify(brand), map: null };
    },
  };
}
