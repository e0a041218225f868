import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BrandRoute } from '../core/brands';

export interface RuntimeSettings {
  apiBase: string;
  addressLookupUrl: string;
}

export interface PortalPages {
  /** HTML for a matched brand route: its prerendered page when the build made one, else the shell. */
  brandPage(route: BrandRoute): string;
  notFound: string;
}

/** Text for an attribute value or an element's content. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Fills the page's runtime-settings meta tags (see docs/architecture.md). */
export function injectSettings(html: string, settings: RuntimeSettings): string {
  const fill = (page: string, name: string, value: string) =>
    page.replace(
      new RegExp(`(<meta\\s+name="${name}"\\s+content=")[^"]*(")`),
      (_m, start: string, end: string) => `${start}${escapeHtml(value)}${end}`,
    );
  return fill(fill(html, 'portal:api-base', settings.apiBase), 'portal:address-lookup-url', settings.addressLookupUrl);
}

async function htmlFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

/**
 * Reads the built HTML once at start: dist/web/index.html (required), the
 * prerendered pages/<brand>/<locale>/<country>.html and pages/404.html when
 * present. Requests are then answered from memory.
 */
export async function loadPortalPages(webRoot: string, settings: RuntimeSettings): Promise<PortalPages> {
  const indexPath = join(webRoot, 'index.html');
  if (!existsSync(indexPath)) throw new Error(`${indexPath} is missing: build the portal first (npm run build)`);
  const load = async (path: string) => injectSettings(await readFile(path, 'utf8'), settings);
  const shell = await load(indexPath);

  const pagesDir = join(webRoot, 'pages');
  const prerendered = new Map<string, string>();
  for (const file of await htmlFiles(pagesDir)) {
    prerendered.set(relative(pagesDir, file).replace(/\\/g, '/').replace(/\.html$/, ''), await load(file));
  }
  return {
    brandPage: ({ brand, locale, country }) => prerendered.get(`${brand.id}/${locale}/${country}`) ?? shell,
    notFound: prerendered.get('404') ?? shell,
  };
}
