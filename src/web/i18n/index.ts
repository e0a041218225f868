import i18next, { type TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import { DEFAULT_LOCALE } from '../../core/locale';
import type { Locale } from '../../core/types';
import fr from '../../../schemas/i18n/fr.json';
import nl from '../../../schemas/i18n/nl.json';

export const i18n = i18next.createInstance();
void i18n.init({
  resources: { nl: { translation: nl }, fr: { translation: fr } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: ['nl', 'fr'],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

/** The translate function of the page's locale (from the route, not global state). */
export function useT(): TFunction {
  return i18n.getFixedT(useContext(LocaleContext));
}

export function useLocale(): Locale {
  return useContext(LocaleContext);
}
