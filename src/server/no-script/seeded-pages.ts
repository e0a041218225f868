import { pathToFileURL } from 'node:url';
import type { BrandRoute } from '../../core/brands';
import { brandPath } from '../../core/brands';
import { seedDataBlock, type FormSeed } from '../../core/form-seed';
import type { PortalPages } from '../portal-pages';
import { withSubmissionKey } from './submission-key';

/** What the server needs of the SSR build of src/web/entry-server.tsx. */
interface SsrEntry {
  render(url: string, seed: FormSeed | null): Promise<{ html: string }>;
}

/**
 * Brand pages in the state a post without scripts left them (values and
 * errors, or the confirmation): rendered by the same SSR build the prerender
 * uses, placed in the prerendered page of the route (head, preloads, settings),
 * with the seed as a data block so the scripts, if they run, hydrate the same state.
 */
export class SeededPages {
  private entry: Promise<SsrEntry> | undefined;

  constructor(
    private readonly ssrEntryPath: string,
    private readonly pages: PortalPages,
  ) {}

  async render(route: BrandRoute, seed: FormSeed, submissionKey?: string): Promise<string> {
    this.entry ??= import(pathToFileURL(this.ssrEntryPath).href) as Promise<SsrEntry>;
    const { html } = await (await this.entry).render(brandPath(route.brand.id, route.locale, route.country), seed);
    // React's resource hints lead the markup; the prerendered <head> has them already.
    const markup = html.replace(/^(?:<link\b[^>]*>)+/, '');
    const page = this.pages.brandPage(route);
    const start = page.indexOf('<div id="root">') + '<div id="root">'.length;
    const end = page.lastIndexOf('</div>', page.indexOf('</body>'));
    const filled = `${page.slice(0, start)}${markup}${page.slice(end).replace('</body>', `${seedDataBlock(seed)}</body>`)}`;
    return withSubmissionKey(filled, submissionKey);
  }
}
