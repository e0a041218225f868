import type { Brand, Country, Locale } from './types';

/** A country with policies of its own (Belgium) gives its visitors the one in their language; everyone else gets the default. */
export function privacyPolicyUrl(brand: Pick<Brand, 'privacyPolicy'>, country: Country, locale: Locale): string {
  const own = country === 'default' ? undefined : brand.privacyPolicy[country];
  return (typeof own === 'object' && Object.hasOwn(own, locale) && own[locale]) || brand.privacyPolicy.default;
}
