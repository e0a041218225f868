/**
 * Server render of the portal for the prerender step (src/cli/prerender.ts).
 * Built by `vite build --ssr` into dist/web/ssr, never shipped to the browser (the intake server renders pages after a post without scripts with it).
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { brandPaths as allBrandPaths, matchBrandRoute, pageTitle } from '../core/brands';
import { App } from './app';
import { assetUrl, brandModule, brandRoutes, loadBrand } from './app/brands';
import { FormSeedContext } from './form/form-seed';
import { languageCodes, translate } from './i18n';
import { FALLBACK_LOCALE } from '../core/texts';
import type { FormSeed } from '../core/form-seed';

/** The app's code, which src/web/main.tsx imports once the page has painted. */
const APP_MODULE = 'src/web/start.tsx';

export interface RenderedPage {
  /** Markup for inside <div id="root">. */
  html: string;
  status: 200 | 404;
  /** What useDocumentHead sets after hydration, for the HTML before it. */
  title: string;
  /** The page's meta description, in its language. */
  description: string;
  lang: string;
  favicon?: string;
  /** Modules the page loads lazily (the app, its brand file, its form), as the build's manifest names them, to preload. */
  preloadModules: string[];
}

/** Every brand page there is: each brand × locale × each country the brand serves. */
export function brandPaths(): string[] {
  return allBrandPaths(brandRoutes.values());
}

/** Renders a page; with a seed, in the state a post without scripts left it (the intake server's use). */
export async function render(url: string, seed: FormSeed | null = null): Promise<RenderedPage> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <FormSeedContext.Provider value={seed}>
          <App />
        </FormSeedContext.Provider>
      </StaticRouter>
    </StrictMode>,
    // Every boundary inline: React outlines big ones behind inline scripts, which the CSP blocks.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  const route = matchBrandRoute(new URL(url, 'http://portal.invalid').pathname, brandRoutes, languageCodes);
  if (!route) {
    const t = translate(FALLBACK_LOCALE);
    return { html, status: 404, title: t('notFound.documentTitle'), description: t('notFound.body'), lang: FALLBACK_LOCALE, preloadModules: [APP_MODULE] };
  }
  const brand = await loadBrand(route.brand.id);
  const t = translate(route.locale);
  // A page that comes back with a problem says so in its title, the first thing a screen reader announces.
  const problem = seed !== null && (seed.notice !== undefined || Object.keys(seed.errors).length > 0);
  return {
    html,
    status: 200,
    title: problem ? t('page.errorTitle', { title: pageTitle(brand) }) : pageTitle(brand),
    lang: route.locale,
    favicon: assetUrl(brand.favicon),
    description: t('page.description', { brand: brand.name }),
    // The form's module is virtual (src/cli/vite/portal-data-modules.ts): the build's manifest names it by its id.
    preloadModules: [APP_MODULE, 'src/web/pages/brand-page.tsx', brandModule(brand.id), `virtual:portal-form/${brand.form}`],
  };
}
