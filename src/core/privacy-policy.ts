import type { Brand, Country, Locale } from './types';

/** Belgian visitors get the Belgian policy in their language; everyone else the Dutch default. */
export function privacyPolicyUrl(brand: Brand, country: Country, locale: Locale): string {
  return country === 'be' ? brand.privacyPolicy.be[locale] : brand.privacyPolicy.default;
}
