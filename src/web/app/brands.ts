import { createContext, useContext } from 'react';
import type { Brand } from '../../core/types';
import routeFacts, { type BrandRouteFacts } from 'virtual:brand-routes';
import { lazyCache } from '../lib/lazy-cache';

// Every brand file becomes a route at build time (adding a brand is data only),
// each in its own chunk: a page downloads its own brand, however many there are.
// @brands is the folder the build takes brands from: brands/, or BRANDS_DIR (vite.config.ts).
// Keys are the files' paths from the project folder ('/brands/teka.json').
const brandFiles = import.meta.glob<Brand>('@brands/*.json', { import: 'default' });
const assetUrls = import.meta.glob<string>('@brands/assets/*', { eager: true, query: '?url', import: 'default' });

/** Brand id (the file name; `npm run validate` checks it equals the id inside) → its loader. */
export const brandLoaders: ReadonlyMap<string, () => Promise<Brand>> = new Map(
  Object.entries(brandFiles).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1, -'.json'.length), load]),
);

/** Each brand's id and countries, for route matching before any brand file is loaded (virtual:brand-routes). */
export const brandRoutes: ReadonlyMap<string, BrandRouteFacts> = new Map(routeFacts.map((facts) => [facts.id, facts]));

const cache = lazyCache<Brand>((id) => {
  const load = brandLoaders.get(id);
  if (!load) throw new Error(`unknown brand ${id}`);
  return load();
});

export const loadBrand = (id: string): Promise<Brand> => cache.load(id);

/** Source module of a brand file, as the build manifest names it (for preloading): 'brands/teka.json'. */
export function brandModule(id: string): string {
  const path = Object.keys(brandFiles).find((p) => p.endsWith(`/${id}.json`));
  if (!path) throw new Error(`unknown brand ${id}`);
  return path.replace(/^\//, '');
}

/** Built URL of a brand asset named in a brand file (e.g. "assets/teka-logo.svg"). */
export function assetUrl(path: string): string {
  for (const key in assetUrls) if (key.endsWith(`/${path}`)) return assetUrls[key];
  return '';
}

/** Where the page's pictures come from: the built portal's assets, unless the studio's preview provides those being edited. */
export const AssetsContext = createContext<(path: string) => string>(assetUrl);

/** The URL of a brand asset named in a brand file, as the page shows it. */
export function useAssetUrl(): (path: string) => string {
  return useContext(AssetsContext);
}
