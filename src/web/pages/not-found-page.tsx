import { brandPath } from '../../core/brands';
import { brandDefaultLocale, brandLocales, FALLBACK_LOCALE } from '../../core/locale';
import type { BrandRouteFacts } from 'virtual:brand-routes';
import { brandRoutes } from '../app/brands';
import { useDocumentHead } from '../app/use-document-head';
import { LocaleContext, translate } from '../i18n';

/** Every brand by name, sorted as people read a list; the same on the server and in the browser. */
const BRANDS = [...brandRoutes.values()].sort((a, b) => a.name.localeCompare(b.name, FALLBACK_LOCALE));

/**
 * Unknown paths carry no locale, so the 404 page speaks the portal's default, Dutch. The spec's two
 * sentences come first, as they are; the way back is every brand's repair form (whoever lands here was
 * after one), in the brand's default language by the brand's name and in each other language it offers
 * in that language. Plain links: they work before and without scripts.
 */
export function NotFoundPage() {
  const t = translate(FALLBACK_LOCALE);
  useDocumentHead(t('notFound.documentTitle'), FALLBACK_LOCALE);
  return (
    <LocaleContext.Provider value={FALLBACK_LOCALE}>
      <main className="not-found" id="main">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.body')}</p>
        <nav className="not-found__way" aria-labelledby="not-found-way">
          <h2 id="not-found-way">{t('notFound.wayBack')}</h2>
          <ul>
            {BRANDS.map((brand) => (
              <WayBack key={brand.id} brand={brand} />
            ))}
          </ul>
        </nav>
      </main>
    </LocaleContext.Provider>
  );
}

/** A brand's form in its default language by the brand's name, then in each other language it offers. */
function WayBack({ brand }: { brand: BrandRouteFacts }) {
  const { id, name, countries } = brand;
  const first = brandDefaultLocale(brand);
  const others = brandLocales(brand).filter((locale) => locale !== first);
  return (
    <li>
      <a href={brandPath(id, first, countries[0])}>{name}</a>
      {others.map((locale) => (
        <a key={locale} className="not-found__other-language" href={brandPath(id, locale, countries[0])} lang={locale} hrefLang={locale}>
          {translate(locale)('notFound.inThisLanguage', { brand: name })}
        </a>
      ))}
    </li>
  );
}
