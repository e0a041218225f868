import type { Brand } from '../../core/types';
import routeFacts, { type BrandRouteFacts } from 'virtual:brand-routes';
import { lazyCache } from '../lib/lazy-cache';

// Every brands/*.json becomes a route at build time (adding a brand is data only),
// each in its own chunk: a page downloads its own brand, however many there are.
const brandFiles = import.meta.glob<Brand>('/brands/*.json', { import: 'default' });
const assetUrls = import.meta.glob<string>('/brands/assets/*', { eager: true, query: '?url', import: 'default' });

/** Brand id (the file name; `npm run validate` checks it equals the id inside) → its loader. */
export const brandLoaders: ReadonlyMap<string, () => Promise<Brand>> = new Map(
  Object.entries(brandFiles).map(([path, load]) => [path.slice('/brands/'.length, -'.json'.length), load]),
);

/** Each brand's id and countries, for route matching before any brand file is loaded (virtual:brand-routes). */
export const brandRoutes: ReadonlyMap<string, BrandRouteFacts> = new Map(routeFacts.map((facts) => [facts.id, facts]));

const cache = lazyCache<Brand>((id) => {
  const load = brandLoaders.get(id);
  if (!load) throw new Error(`unknown brand ${id}`);
  return load();
});

export const loadBrand = (id: string): Promise<Brand> => cache.load(id);

/** Source module of a brand file, as the build manifest names it (for preloading). */
export const brandModule = (id: string): string => `brands/${id}.json`;

/** Built URL of a brand asset named in a brand file (e.g. "assets/teka-logo.svg"). */
export function assetUrl(path: string): string {
  return assetUrls[`/brands/${path}`] ?? '';
}
