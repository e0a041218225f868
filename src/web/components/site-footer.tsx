import { privacyPolicyUrl } from '../../core/privacy-policy';
import type { Brand, Country } from '../../core/types';
import { useLocale, useT } from '../i18n';
import { SocialIcon } from './social-icon';

interface Props {
  brand: Brand;
  country: Country;
}

export function SiteFooter({ brand, country }: Props) {
  const t = useT();
  const locale = useLocale();
  const { footer } = brand;
  return (
    <footer className="site-footer">
      {footer.social && footer.social.length > 0 && (
        <nav aria-label={t('footer.social')}>
          <ul className="site-footer__social">
            {footer.social.map(({ network, url }) => (
              <li key={network}>
                <a href={url} rel="noopener noreferrer">
                  <SocialIcon network={network} />
                  <span className="visually-hidden">{t(`footer.social_${network}`)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {(footer.companyName || footer.address || footer.phone) && (
        <address className="site-footer__company">
          {footer.companyName && <strong>{footer.companyName}</strong>}
          {footer.address && <span>{footer.address}</span>}
          {footer.phone && (
            <span>
              {t('footer.phone')}: <a href={`tel:${footer.phone.replace(/[^+\d]/g, '')}`}>{footer.phone}</a>
            </span>
          )}
        </address>
      )}
      {footer.legal && (
        <nav aria-label={t('footer.legal')}>
          <ul className="site-footer__legal">
            <li>
              <a href={footer.legal.legalNotice}>{t('footer.legalNotice')}</a>
            </li>
            <li>
              <a href={privacyPolicyUrl(brand, country, locale)}>{t('footer.privacyPolicy')}</a>
            </li>
            <li>
              <a href={footer.legal.cookiesPolicy}>{t('footer.cookiesPolicy')}</a>
            </li>
          </ul>
        </nav>
      )}
    </footer>
  );
}
