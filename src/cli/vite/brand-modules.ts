import { sep } from 'node:path';
import type { Plugin } from 'vite';
import { brandFromFile } from '../../core/brand-file.ts';
import type { Brand } from '../../core/types.ts';
import { brandThemeCss } from '../../web/app/brand-theme-css.ts';
import { checkedBrands, type DataFolders } from '../checked-project.ts';

/** A virtual module generated from the checked brand files; it rebuilds when one changes. */
function brandModule(name: string, id: string, generate: (brands: Brand[]) => string, root: string, folders: DataFolders): Plugin {
  const resolved = `\0${id}`;
  return {
    name,
    resolveId: (source) => (source === id ? resolved : undefined),
    load(loadId) {
      if (loadId !== resolved) return undefined;
      const { files, brands } = checkedBrands(root, folders);
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
export const brandThemes = (root: string, folders: DataFolders): Plugin =>
  brandModule('repair-portal:brand-themes', 'virtual:brand-themes.css', brandThemeCss, root, folders);

/**
 * `virtual:brand-routes`: each brand's id, name, countries and languages, so the
 * page matches routes (and 404s the rest, naming the brands' forms as the way
 * back) without downloading every brand file.
 */
export const brandRoutes = (root: string, folders: DataFolders): Plugin =>
  brandModule(
    'repair-portal:brand-routes',
    'virtual:brand-routes',
    (brands) => `export default ${JSON.stringify(brands.map(({ id, name, countries, locales }) => ({ id, name, countries, locales })))};`,
    root,
    folders,
  );

/**
 * What of a brand file the page renders. Everything else stays out of every
 * visitor's JavaScript: where requests are delivered (`serviceDesk`: desk
 * addresses, webhook URL) is the server's business, `notes` are the brand
 * author's, and the theme arrives as CSS (virtual:brand-themes.css).
 */
const PAGE_FIELDS = ['id', 'name', 'form', 'countries', 'locales', 'logo', 'favicon', 'header', 'footer', 'privacyPolicy', 'brandField'] as const satisfies readonly (keyof Brand)[];

/** The page gets brand files with only the fields it renders (PAGE_FIELDS). */
export function brandFilesForThePage(brandsDir: string): Plugin {
  const folder = brandsDir + sep;
  let fields: readonly string[] = PAGE_FIELDS;
  return {
    name: 'repair-portal:brand-files-for-the-page',
    configResolved(config) {
      // `npm run dev` opens on the brand preview (src/web/pages/preview-index.tsx), which shows each theme's colours.
      if (config.command === 'serve') fields = [...PAGE_FIELDS, 'theme'];
    },
    // Before Vite's JSON plugin turns the file into a module.
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(folder) || !id.endsWith('.json')) return undefined;
      // Its form under "form", also for a file that still uses the key's former name.
      const brand = brandFromFile(JSON.parse(code) as Record<string, unknown>) as unknown as Record<string, unknown>;
      return { code: JSON.stringify(Object.fromEntries(fields.filter((k) => k in brand).map((k) => [k, brand[k]]))), map: null };
    },
  };
}
