/**
 * Server render of the portal for the prerender step (src/cli/prerender.ts).
 * Built by `vite build --ssr` into dist/ssr, never shipped to the browser.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { brandPath, matchBrandRoute, pageTitle } from '../core/brands';
import { COUNTRIES, LOCALES } from '../core/locale';
import { App } from './app/app';
import { assetUrl, brands } from './app/brands';
import { i18n } from './i18n';

export interface RenderedPage {
  /** Markup for inside <div id="root">. */
  html: string;
  status: 200 | 404;
  /** What useDocumentHead sets after hydration, for the HTML before it. */
  title: string;
  lang: string;
  favicon?: string;
  /** Source module of the page's lazily loaded form variant, to preload. */
  variantModule?: string;
}

/** Every brand page there is: each brand × locale × country. */
export function brandPaths(): string[] {
  return [...brands.keys()].flatMap((id) => LOCALES.flatMap((l) => COUNTRIES.map((c) => brandPath(id, l, c))));
}

export async function render(url: string): Promise<RenderedPage> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  const route = matchBrandRoute(new URL(url, 'http://portal.invalid').pathname, brands);
  if (!route) {
    return { html, status: 404, title: i18n.getFixedT('nl')('notFound.documentTitle'), lang: 'nl' };
  }
  return {
    html,
    status: 200,
    title: pageTitle(route.brand),
    lang: route.locale,
    favicon: assetUrl(route.brand.favicon),
    variantModule: `src/web/form/generated/${route.brand.variant}.validator.ts`,
  };
}
