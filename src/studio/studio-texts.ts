import i18next, { type TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import en from './texts/en.json';
import nl from './texts/nl.json';

/** The studio speaks to brand owners in English or Dutch (its own texts, beside the portal's languages). */
export const STUDIO_LANGUAGES = { en, nl } as const;
export type StudioLanguage = keyof typeof STUDIO_LANGUAGES;

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, nl: { translation: nl } },
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** The browser's language where the studio has it, else English. */
export function preferredLanguage(languages: readonly string[] = navigator.languages): StudioLanguage {
  const found = languages.map((tag) => tag.slice(0, 2).toLowerCase()).find((code): code is StudioLanguage => Object.hasOwn(STUDIO_LANGUAGES, code));
  return found ?? 'en';
}

export const studioT = (language: StudioLanguage): TFunction => instance.getFixedT(language);

export const StudioLanguageContext = createContext<StudioLanguage>('en');

/** The studio's translate function in the language the brand owner chose. */
export function useStudioT(): TFunction {
  return studioT(useContext(StudioLanguageContext));
}
