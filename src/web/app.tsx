import { lazy, Suspense, use } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { matchBrandRoute } from '../core/brands';
import type { Country, Locale } from '../core/types';
import { lazyCache } from './lib/lazy-cache';
import { NotFoundPage } from './pages/not-found-page';
import { languageCodes } from './i18n';
import { brandRoutes, loadBrand } from './app/brands';

// The brand page (the form and its renderer) is a chunk of its own: the 404 page ships none of it.
// Brand file and page load as one promise, so the page makes one `use` call.
const brandPages = lazyCache((id) => Promise.all([loadBrand(id), import('./pages/brand-page')]));

interface LoadedBrandPageProps {
  id: string;
  locale: Locale;
  country: Country;
}

/** The brand file and the page arrive in their own chunks: prerendering waits for them, hydration keeps the server markup. */
function LoadedBrandPage({ id, locale, country }: LoadedBrandPageProps) {
  const [brand, { BrandPage }] = use(brandPages.load(id));
  return <BrandPage brand={brand} locale={locale} country={country} />;
}

// The raw pathname, not useParams(): params are decoded already, and decoding
// twice would differ from the server render (entry-server matches the pathname).
function BrandRoute() {
  const route = matchBrandRoute(useLocation().pathname, brandRoutes, languageCodes);
  if (!route) return <NotFoundPage />;
  return (
    <Suspense fallback={null}>
      <LoadedBrandPage key={route.brand.id} id={route.brand.id} locale={route.locale} country={route.country} />
    </Suspense>
  );
}

// npm run dev opens on the brand preview; the built portal has no page at / (404) and no preview code.
const PreviewIndex = import.meta.env.MODE === 'development' ? lazy(() => import('./pages/preview-index')) : null;

/**
 * The routes, in one place. No router of its own: main.tsx wraps it in a
 * BrowserRouter, entry-server.tsx in a StaticRouter, tests in a MemoryRouter.
 */
export function App() {
  return (
    <Routes>
      {PreviewIndex && (
        <Route
          path="/"
          element={
            <Suspense fallback={null}>
              <PreviewIndex />
            </Suspense>
          }
        />
      )}
      <Route path="/:brandId/:locale/:country" element={<BrandRoute />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
