import { indexBrands } from '../../core/brands';
import type { Brand } from '../../core/types';

// Every brands/*.json becomes a route at build time: adding a brand is data only.
const brandFiles = import.meta.glob<Brand>('/brands/*.json', { eager: true, import: 'default' });
const assetUrls = import.meta.glob<string>('/brands/assets/*', { eager: true, query: '?url', import: 'default' });

export const brands = indexBrands(Object.values(brandFiles));

/** Built URL of a brand asset named in a brand file (e.g. "assets/teka-logo.svg"). */
export function assetUrl(path: string): string {
  return assetUrls[`/brands/${path}`] ?? '';
}
