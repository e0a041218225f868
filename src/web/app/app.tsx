import { Route, Routes, useLocation } from 'react-router-dom';
import { matchBrandRoute } from '../../core/brands';
import { BrandPage } from '../pages/brand-page';
import { NotFoundPage } from '../pages/not-found-page';
import { brands } from './brands';

// The raw pathname, not useParams(): params are decoded already, and decoding
// twice would differ from the server render (entry-server matches the pathname).
function BrandRoute() {
  const route = matchBrandRoute(useLocation().pathname, brands);
  return route ? <BrandPage key={route.brand.id} {...route} /> : <NotFoundPage />;
}

/**
 * The routes, in one place. No router of its own: main.tsx wraps it in a
 * BrowserRouter, entry-server.tsx in a StaticRouter, tests in a MemoryRouter.
 */
export function App() {
  return (
    <Routes>
      <Route path="/:brandId/:locale/:country" element={<BrandRoute />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
