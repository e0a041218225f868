import type { CSSProperties } from 'react';
import { pageTitle, type BrandRoute } from '../../core/brands';
import { assetUrl } from '../app/brands';
import { useDocumentHead } from '../app/use-document-head';
import { SiteFooter } from '../components/site-footer';
import { SiteHeader } from '../components/site-header';
import { RepairForm } from '../form/repair-form';
import { LocaleContext } from '../i18n';

/** Theme tokens become CSS custom properties (set through the CSSOM, so the CSP needs no inline styles). */
function themeStyle(theme: BrandRoute['brand']['theme']): CSSProperties {
  return {
    '--primary': theme.primary,
    '--on-primary': theme.onPrimary,
    '--header-bg': theme.headerBackground,
    '--header-fg': theme.headerText,
    '--banner-bg': theme.bannerBackground ?? theme.headerBackground,
    '--banner-fg': theme.bannerText ?? theme.headerText,
    '--footer-bg': theme.footerBackground,
    '--footer-fg': theme.footerText,
  } as CSSProperties;
}

export function BrandPage({ brand, locale, country }: BrandRoute) {
  useDocumentHead(pageTitle(brand), locale, assetUrl(brand.favicon));
  return (
    <LocaleContext.Provider value={locale}>
      <div className={`brand-page brand-page--${brand.id}`} style={themeStyle(brand.theme)}>
        <SiteHeader brand={brand} country={country} />
        <main id="main" className="brand-page__main">
          <RepairForm brand={brand} locale={locale} country={country} />
        </main>
        <SiteFooter brand={brand} country={country} />
      </div>
    </LocaleContext.Provider>
  );
}
