import { pageTitle, type BrandRoute } from '../../core/brands';
import { useAssetUrl } from '../app/brands';
import { useDocumentHead } from '../app/use-document-head';
import { SiteFooter } from '../components/site-footer';
import { SiteHeader } from '../components/site-header';
import { RepairForm } from '../form/repair-form';
import { LocaleContext, useTexts } from '../i18n';

export function BrandPage({ brand, locale, country }: BrandRoute) {
  const assetUrl = useAssetUrl();
  const texts = useTexts();
  useDocumentHead(pageTitle(brand), locale, assetUrl(brand.favicon), texts.t(locale)('page.description', { brand: brand.name }));
  return (
    <LocaleContext.Provider value={locale}>
      {/* Theme colours come from the generated stylesheet (virtual:brand-themes.css), not a style prop: the CSP blocks style attributes. */}
      <div className={`brand-page brand-page--${brand.id}`}>
        <SiteHeader brand={brand} country={country} />
        <main id="main" className="brand-page__main">
          <RepairForm brand={brand} locale={locale} country={country} />
        </main>
        <SiteFooter brand={brand} country={country} />
      </div>
    </LocaleContext.Provider>
  );
}
