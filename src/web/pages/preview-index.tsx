import { use } from 'react';
import { Link } from 'react-router-dom';
import { brandPath } from '../../core/brands';
import { brandLocales } from '../../core/locale';
import type { Brand, BrandTheme } from '../../core/types';
import { assetUrl, brandRoutes, loadBrand } from '../app/brands';
import { useDocumentHead } from '../app/use-document-head';
import './preview-index.css';

const allBrands = Promise.all([...brandRoutes.keys()].sort().map(loadBrand));

const SWATCHES: [token: keyof BrandTheme, cssVariable: string][] = [
  ['primary', '--primary'],
  ['onPrimary', '--on-primary'],
  ['headerBackground', '--header-bg'],
  ['headerText', '--header-fg'],
  ['footerBackground', '--footer-bg'],
  ['footerText', '--footer-fg'],
];

/**
 * `npm run dev` opens here: every brand with a link to each of its pages and
 * its theme colours, so a brand author sees all at once. Never built into
 * the portal (app.tsx loads it only in dev).
 */
export default function PreviewIndex() {
  useDocumentHead('Brand preview', 'en');
  const brands = use(allBrands);
  return (
    <main id="main" className="preview-index">
      <h1>Brand preview</h1>
      <p>Every brand in brands/, as the portal shows it. Save a brand file and its pages update here.</p>
      <ul className="preview-index__brands">
        {brands.map((brand) => (
          <BrandCard key={brand.id} brand={brand} />
        ))}
      </ul>
    </main>
  );
}

function BrandCard({ brand }: { brand: Brand }) {
  return (
    <li className={`preview-index__brand brand-page--${brand.id}`}>
      <h2>
        <img src={assetUrl(brand.favicon)} alt="" width="20" height="20" /> {brand.name}{' '}
        <span className="preview-index__id">brands/{brand.id}.json · {brand.form} form</span>
      </h2>
      <ul className="preview-index__pages" aria-label={`Pages of ${brand.name}`}>
        {brandLocales(brand).flatMap((locale) =>
          brand.countries.map((country) => (
            <li key={`${locale}-${country}`}>
              <Link to={brandPath(brand.id, locale, country)}>{brandPath(brand.id, locale, country)}</Link>
            </li>
          )),
        )}
      </ul>
      <dl className="preview-index__colours">
        {SWATCHES.map(([token, variable]) => (
          <div key={token}>
            <dt>
              <span className="preview-index__swatch" data-colour={variable} aria-hidden="true" />
              {token}
            </dt>
            <dd>{brand.theme[token]}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
