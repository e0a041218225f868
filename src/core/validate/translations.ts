import { languageCodes } from '../portal-data.ts';
import type { ProjectFiles } from '../project-files.ts';
import { joinPath } from '../project-path.ts';
import { FALLBACK_LOCALE } from '../texts.ts';
import { isRecord, readJson } from './files.ts';
import { toPointer, type Problem } from './problem.ts';

/** Every key path ending in a text, e.g. ['footer', 'phone']. */
export function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!isRecord(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, [...prefix, key]));
}

/**
 * The language files, schemas/i18n/<code>.json: each reads as JSON, Dutch
 * (the fallback of every text) is there, and each has its own name. A text
 * Dutch has and another language lacks falls back to Dutch on its pages and
 * in its mails: one warning per language counts them ("de (Deutsch): 5 of
 * 214 texts translated"), and a note per text names each (shown on request).
 */
export function checkLanguages(files: ProjectFiles, schemasDir: string): { problems: Problem[]; warnings: Problem[]; notes: Problem[] } {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const notes: Problem[] = [];
  const trees = new Map<string, unknown>();
  const fileOf = (code: string) => joinPath(schemasDir, 'i18n', `${code}.json`);
  for (const code of languageCodes(files, schemasDir)) {
    const file = fileOf(code);
    if (!/^[a-z]{2,3}$/.test(code)) {
      problems.push({ file, pointer: '', message: `"${code}" is not a language code: name the file after the two lower-case letters of ISO 639-1, e.g. de.json for German.` });
      continue;
    }
    const read = readJson(files, file);
    if (!read.ok) problems.push(...read.problems);
    else trees.set(code, read.data);
  }
  const fallback = trees.get(FALLBACK_LOCALE);
  if (!fallback) {
    if (!languageCodes(files, schemasDir).includes(FALLBACK_LOCALE)) problems.push({ file: fileOf(FALLBACK_LOCALE), pointer: '', message: 'the Dutch texts are missing: Dutch is the portal\'s default language, and every other language falls back to it.' });
    return { problems, warnings, notes };
  }
  // The language's own name and Intl locale are its own, never Dutch's (checked above; the code stands in for the locale).
  const dutch = textPaths(fallback).filter((key) => !key.startsWith('["language",'));
  for (const [code, tree] of trees) {
    const file = fileOf(code);
    const own = isRecord(tree) && isRecord(tree.language) ? tree.language.name : undefined;
    if (typeof own !== 'string' || own.trim() === '') {
      problems.push({ file, pointer: '/language/name', message: `the language's own name is missing (e.g. "Deutsch" for German): the language switch shows it. Add "language": { "name": "…" }.` });
    }
    if (code === FALLBACK_LOCALE) continue;
    const have = new Set(textPaths(tree));
    // A form's message the language lacks comes from its default table first (core/field-errors.ts).
    const covered = (key: string) => {
      const [section, table, ...rest] = JSON.parse(key) as string[];
      return section === 'validation' && table !== 'default' && have.has(JSON.stringify([section, 'default', ...rest]));
    };
    const missing = dutch.filter((k) => !have.has(k) && !covered(k)).map((key) => JSON.parse(key) as string[]);
    if (missing.length === 0) continue;
    for (const path of missing) notes.push({ file, pointer: toPointer(path), message: `the text "${path.join('.')}" is missing, so the Dutch one is used.` });
    const named = typeof own === 'string' && own.trim() !== '' ? `${code} (${own})` : code;
    const which = missing.length <= LISTED_INLINE ? `: ${missing.map((path) => path.join('.')).join(', ')}` : ` (npm run validate -- --fallbacks lists them)`;
    warnings.push({
      file,
      pointer: '',
      message: `${named}: ${dutch.length - missing.length} of ${dutch.length} texts translated; the other ${missing.length} show in Dutch${which}. Add them to ${file} in the same places as in ${fileOf(FALLBACK_LOCALE)}.`,
    });
  }
  return { problems, warnings, notes };
}

/** So few missing texts are named in the warning itself. */
const LISTED_INLINE = 3;

/** A language file's texts, as JSON-encoded key paths; keys starting with $ ($schema, $comment) are for editors. */
function textPaths(tree: unknown): string[] {
  return leafPaths(tree).filter((path) => !path[0]?.startsWith('$')).map((path) => JSON.stringify(path));
}
