import { pathToFileURL } from 'node:url';
import type { BrandRoute } from '../../core/brands';
import { brandPath } from '../../core/brands';
import { seedDataBlock, type FormSeed } from '../../core/form-seed';
import { escapeHtml, type PortalPages } from '../portal-pages';
import { withSubmissionKey } from './submission-key';

/** What the server needs of the SSR build of src/web/entry-server.tsx. */
interface SsrEntry {
  render(url: string, seed: FormSeed | null): Promise<{ html: string; title: string }>;
}

/** A seed that holds nothing of anyone: a notice over an empty form. Its page is the same for everyone. */
function isImpersonal(seed: FormSeed): boolean {
  return Object.keys(seed.formData).length === 0 && Object.keys(seed.errors).length === 0 && !seed.sentTo && !seed.notice?.reference;
}

/**
 * Brand pages in the state a post without scripts left them (values and
 * errors, a notice, or the confirmation): rendered by the same SSR build the
 * prerender uses, placed in the prerendered page of the route (head, preloads,
 * settings) under the render's title, with the seed as a data block so the
 * scripts, if they run, hydrate the same state.
 */
export class SeededPages {
  private entry: Promise<SsrEntry> | undefined;
  /** Pages of impersonal seeds, rendered once: a flood of refused posts costs no render each. */
  private readonly impersonal = new Map<string, Promise<string>>();

  constructor(
    private readonly ssrEntryPath: string,
    private readonly pages: PortalPages,
  ) {}

  /** The confirmation of the request `reference`, sent to `email`: no form, so no key. */
  confirmation(route: BrandRoute, { reference, email }: { reference: string; email: string }): Promise<string> {
    return this.fill(route, { brandId: route.brand.id, formData: {}, errors: {}, sentTo: email, reference });
  }

  /** The form in the seed's state, posting under `submissionKey`. */
  async render(route: BrandRoute, seed: FormSeed, submissionKey: string): Promise<string> {
    if (!isImpersonal(seed)) return withSubmissionKey(await this.fill(route, seed), submissionKey);
    const id = `${brandPath(route.brand.id, route.locale, route.country)} ${seed.notice?.kind ?? ''}`;
    let page = this.impersonal.get(id);
    if (!page) {
      page = this.fill(route, seed);
      this.impersonal.set(id, page);
      page.catch(() => this.impersonal.delete(id));
    }
    return withSubmissionKey(await page, submissionKey);
  }

  private async fill(route: BrandRoute, seed: FormSeed): Promise<string> {
    this.entry ??= import(pathToFileURL(this.ssrEntryPath).href) as Promise<SsrEntry>;
    const { html, title } = await (await this.entry).render(brandPath(route.brand.id, route.locale, route.country), seed);
    // React's resource hints lead the markup; the prerendered <head> has them already.
    const markup = html.replace(/^(?:<link\b[^>]*>)+/, '');
    const page = this.pages.brandPage(route).replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
    const start = page.indexOf('<div id="root">') + '<div id="root">'.length;
    const end = page.lastIndexOf('</div>', page.indexOf('</body>'));
    return `${page.slice(0, start)}${markup}${page.slice(end).replace('</body>', `${seedDataBlock(seed)}</body>`)}`;
  }
}
