import i18next, { type TFunction } from 'i18next';
import { createContext, useContext } from 'react';
// Every i18n/<code>.json of SCHEMAS_DIR is a language; the page gets only its own texts (src/cli/vite/portal-data-modules.ts).
import files from 'virtual:portal-languages';
import { FALLBACK_LOCALE, indexLanguages } from '../../core/texts';
import type { Locale } from '../../core/types';

/** The portal's languages by code, as core's texts and message tables read them. */
export const languages = indexLanguages(files);

/** The codes, for route matching: a portal language a brand does not offer is 404 there. */
export const languageCodes: ReadonlySet<Locale> = new Set(languages.keys());

export const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries([...languages].map(([code, tree]) => [code, { translation: tree }])),
  lng: FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...languageCodes],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const LocaleContext = createContext<Locale>(FALLBACK_LOCALE);

/** The translate function of the page's locale (from the route, not global state). */
export function useT(): TFunction {
  return i18n.getFixedT(useContext(LocaleContext));
}

export function useLocale(): Locale {
  return useContext(LocaleContext);
}
