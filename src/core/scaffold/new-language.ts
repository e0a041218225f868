import type { ProjectFiles } from '../project-files.ts';
import { PROJECT_LAYOUT, type ProjectLayout } from '../project-layout.ts';
import { joinPath } from '../project-path.ts';

export interface NewLanguageRequest {
  /** The ISO 639-1 code: the file's name, and the pages' /<brand>/<code>/<country>. */
  code: string;
  /** Its own name, as the language switch shows it; default: what Intl calls it in itself ("Deutsch"). */
  name?: string;
  /** The locale its dates are written in; default: the code with its most likely country ("de-DE"). */
  intl?: string;
}

/** The file to make (its project path, and by path its text) and what goes into it, or why nothing is made. */
export type NewLanguagePlan = { ok: true; file: string; name: string; intl: string; files: Record<string, string> } | { ok: false; message: string };

/** Where the rules of a language file are, as its $schema says it (editors read it). */
const LANGUAGE_SCHEMA = '../language.schema.json';

/**
 * Starts schemas/i18n/<code>.json with only what must be chosen: the
 * language's own name and its date locale. Every text it does not have yet
 * falls back to Dutch, and npm run validate counts them, so nothing
 * untranslated hides as a Dutch copy. Never plans a file that exists.
 */
export function planNewLanguage(files: ProjectFiles, { code, name, intl }: NewLanguageRequest, layout: ProjectLayout = PROJECT_LAYOUT): NewLanguagePlan {
  if (!/^[a-z]{2,3}$/.test(code)) {
    const lower = code.toLowerCase();
    const hint = /^[a-z]{2,3}$/.test(lower) ? ` Use "${lower}".` : '';
    return { ok: false, message: `"${code}" is not a language code: use the two lower-case letters of ISO 639-1, e.g. de for German.${hint}` };
  }
  const file = joinPath(layout.schemasDir, 'i18n', `${code}.json`);
  if (files.isFile(file)) return { ok: false, message: `${file} already exists: the language "${code}" is there. Edit that file.` };
  const ownName = name ?? nameInItself(code);
  if (!ownName) return { ok: false, message: `the language "${code}" has no name this command knows: give it with --name, as its speakers write it (e.g. --name "Deutsch").` };
  const locale = intl ?? likelyLocale(code);
  if (!validLocale(locale)) return { ok: false, message: `"${locale}" is not a locale dates can be written in: give one such as de-BE (language, then country) with --intl.` };
  const data = { $schema: LANGUAGE_SCHEMA, language: { name: ownName, intl: locale } };
  return { ok: true, file, name: ownName, intl: locale, files: { [file]: `${JSON.stringify(data, null, 2)}\n` } };
}

/** "Deutsch" for de: the language's name in itself, capitalised as a name; undefined when Intl does not know it. */
function nameInItself(code: string): string | undefined {
  const named = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
  return named ? named.charAt(0).toLocaleUpperCase(code) + named.slice(1) : undefined;
}

/** The code with the country it is most likely written in ("de" → "de-DE"); the code alone when none is known. */
function likelyLocale(code: string): string {
  const region = new Intl.Locale(code).maximize().region;
  return region ? `${code}-${region}` : code;
}

function validLocale(locale: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0;
  } catch {
    return false;
  }
}
