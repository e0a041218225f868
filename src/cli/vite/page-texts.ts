import { join, sep } from 'node:path';
import type { Plugin } from 'vite';

/** Sections of a language file that only the server and the staff commands read (mails, the export's headers, the Intl locale of their dates), and what only editors read. */
const NOT_FOR_THE_PAGE = new Set(['$schema', '$comment', 'mail', 'export', 'language.intl']);

/** A data file without the parts only the server reads (dotted paths, one level deep) and without its comments. */
function forThePage(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !NOT_FOR_THE_PAGE.has(`${prefix}${key}`))
      .map(([key, inner]) => [key, prefix === '' && inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? forThePage(inner as Record<string, unknown>, `${key}.`) : inner]),
  );
}

/**
 * The page gets the language files (schemas/i18n/*.json) and schemas/countries.json without what only
 * the server and the staff commands read: every visitor downloads them.
 */
export function pageTexts(root: string): Plugin {
  const i18n = join(root, 'schemas', 'i18n') + sep;
  const countries = join(root, 'schemas', 'countries.json');
  return {
    name: 'repair-portal:page-texts',
    // Before Vite's JSON plugin turns the file into a module.
    enforce: 'pre',
    transform(code, id) {
      if (!(id.startsWith(i18n) && id.endsWith('.json')) && id !== countries) return undefined;
      return { code: JSON.stringify(forThePage(JSON.parse(code) as Record<string, unknown>)), map: null };
    },
  };
}
