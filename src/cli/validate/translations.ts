import { isRecord, readJson, displayPath } from './files';
import { toPointer, type Problem } from './problem';

const LOCALE_NAMES: Record<string, string> = { nl: 'Dutch (nl)', fr: 'French (fr)' };

/** Every key path ending in a text, e.g. ['footer', 'phone']. */
export function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!isRecord(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, [...prefix, key]));
}

/** The interface texts: nl.json and fr.json must offer the same keys, or a visitor sees a raw key. */
export function checkInterfaceTexts(root: string, files: Record<string, string>): Problem[] {
  const tables: Record<string, unknown> = {};
  const problems: Problem[] = [];
  for (const [locale, file] of Object.entries(files)) {
    const read = readJson(root, file);
    if (read.ok) tables[locale] = read.data;
    else problems.push(...read.problems);
  }
  if (problems.length > 0) return problems;
  return missingKeys(tables, (locale, path) => ({
    file: displayPath(root, files[locale]),
    pointer: toPointer(path),
    message: `the ${LOCALE_NAMES[locale] ?? locale} interface text "${path.join('.')}" is missing; the other language has it.`,
  }));
}

/** messages.json: each variant has a table per locale, and all tables have the same messages. */
export function checkMessages(root: string, file: string, variants: readonly string[]): Problem[] {
  const read = readJson(root, file);
  if (!read.ok) return read.problems;
  const shown = displayPath(root, file);
  const data = isRecord(read.data) ? read.data : {};
  const problems: Problem[] = [];
  const tables: Record<string, unknown> = {};
  for (const variant of variants) {
    const byLocale = data[variant];
    for (const locale of Object.keys(LOCALE_NAMES)) {
      const table = isRecord(byLocale) ? byLocale[locale] : undefined;
      if (isRecord(table)) tables[`${variant}/${locale}`] = table;
      else {
        problems.push({ file: shown, pointer: toPointer([variant, locale]), message: `the ${LOCALE_NAMES[locale]} error messages of the ${variant} form are missing.` });
      }
    }
  }
  return problems.concat(
    missingKeys(tables, (table, path) => {
      const [variant, locale] = table.split('/');
      return {
        file: shown,
        pointer: toPointer([variant, locale, ...path]),
        message: `the ${LOCALE_NAMES[locale]} error message "${path.join('.')}" of the ${variant} form is missing; other forms or languages have it.`,
      };
    }),
  );
}

/** One problem per key path that some table has and another lacks. */
function missingKeys(tables: Record<string, unknown>, problem: (table: string, path: string[]) => Problem): Problem[] {
  const keysOf = Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, new Set(leafPaths(t).map((p) => JSON.stringify(p)))]));
  const union = new Set(Object.values(keysOf).flatMap((keys) => [...keys]));
  return Object.entries(keysOf).flatMap(([name, keys]) =>
    [...union].filter((k) => !keys.has(k)).map((k) => problem(name, JSON.parse(k) as string[])),
  );
}
