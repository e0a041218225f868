import { useNavigate } from 'react-router-dom';
import { brandPath } from '../../core/brands';
import { brandLocales } from '../../core/locale';
import { textAt } from '../../core/texts';
import type { Brand, Country } from '../../core/types';
import { useAssetUrl } from '../app/brands';
import { useLocale, useT, useTexts } from '../i18n';

interface Props {
  brand: Brand;
  country: Country;
}

export function SiteHeader({ brand, country }: Props) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const assetUrl = useAssetUrl();
  const { languages } = useTexts();
  const { header } = brand;
  const heading = header.title?.[locale] ?? header.banner?.[locale];
  return (
    <header className="site-header">
      <div className="site-header__bar">
        <img className="site-header__logo" src={assetUrl(brand.logo)} alt={brand.name} width="200" height="40" fetchPriority="high" />
        {header.languageSwitch && (
          <div className="language-switch" role="group" aria-label={t('header.languageSwitch')}>
            {brandLocales(brand).map((l) => (
              <button
                key={l}
                type="button"
                lang={l}
                aria-pressed={l === locale}
                // The spoken name starts with the visible "FR" (WCAG 2.5.3, label in name), then says it in full.
                aria-label={`${l.toUpperCase()} ${textAt(languages.get(l), 'language.name') ?? l}`}
                onClick={() => navigate(brandPath(brand.id, l, country), { replace: true })}
              >
                {l.toUpperCase()}
              </button>
            ))}
          </div>
        )}
      </div>
      {header.banner ? (
        <div className="site-header__banner">
          <h1>{header.banner[locale]}</h1>
        </div>
      ) : (
        <h1 className={header.title ? 'site-header__title' : 'visually-hidden'}>{heading ?? t('page.heading')}</h1>
      )}
    </header>
  );
}
