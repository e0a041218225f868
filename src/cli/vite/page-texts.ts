/** Sections of a language file that only the server and the staff commands read (mails, the export's headers, the Intl locale of their dates), and what only editors read. */
const NOT_FOR_THE_PAGE = new Set(['$schema', '$comment', 'mail', 'export', 'language.intl']);

/**
 * A language file or countries.json without what only the server and the staff commands read (dotted paths,
 * one level deep) and without its comments: every visitor downloads what the page gets.
 */
export function forThePage(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !NOT_FOR_THE_PAGE.has(`${prefix}${key}`))
      .map(([key, inner]) => [key, prefix === '' && inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? forThePage(inner as Record<string, unknown>, `${key}.`) : inner]),
  );
}
