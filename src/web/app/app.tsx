import { BrowserRouter, Route, Routes, useParams } from 'react-router-dom';
import { matchBrandRoute } from '../../core/brands';
import { BrandPage } from '../pages/brand-page';
import { NotFoundPage } from '../pages/not-found-page';
import { brands } from './brands';

function BrandRoute() {
  const { brandId = '', locale = '', country = '' } = useParams();
  const route = matchBrandRoute(`/${brandId}/${locale}/${country}`, brands);
  return route ? <BrandPage key={route.brand.id} {...route} /> : <NotFoundPage />;
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/:brandId/:locale/:country" element={<BrandRoute />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </BrowserRouter>
  );
}
