import { createContext, useContext, useMemo } from 'react';
// Every i18n/<code>.json of SCHEMAS_DIR is a language; the page gets only its own texts (src/cli/vite/portal-data-modules.ts).
import files from 'virtual:portal-languages';
import { FALLBACK_LOCALE, indexLanguages, translator, type Languages, type TextTree, type Translate } from '../../core/texts';
import type { Locale } from '../../core/types';

export type { Translate };

/**
 * The page's languages: the files by code, their codes (route matching) and each language's texts
 * as a function. core/texts.ts reads them, as it does for the mails: {{placeholders}}, Dutch where a
 * language lacks a text; no i18n library ships.
 */
export interface PageTexts {
  languages: Languages;
  /** A portal language a brand does not offer is 404 there. */
  codes: ReadonlySet<Locale>;
  t(locale: Locale): Translate;
}

/** Texts made from language files: the built portal's once; the studio's preview at each edit. */
export function pageTexts(trees: Readonly<Record<Locale, TextTree>>): PageTexts {
  const languages = indexLanguages(trees);
  return { languages, codes: new Set(languages.keys()), t: (locale) => translator(languages, locale) };
}

const built = pageTexts(files);

/** The built portal's languages by code, as core's texts and message tables read them. */
export const languages = built.languages;

export const languageCodes = built.codes;

/** The built portal's texts in one language (the prerender and the 404 page read them). */
export const translate = built.t;

/** The texts the page shows: the built portal's, unless the studio's preview provides those being edited. */
export const TextsContext = createContext<PageTexts>(built);

export const LocaleContext = createContext<Locale>(FALLBACK_LOCALE);

export function useTexts(): PageTexts {
  return useContext(TextsContext);
}

/** The translate function of the page's locale (from the route, not global state); the same one while its texts are. */
export function useT(): Translate {
  const texts = useTexts();
  const locale = useContext(LocaleContext);
  return useMemo(() => texts.t(locale), [texts, locale]);
}

export function useLocale(): Locale {
  return useContext(LocaleContext);
}
