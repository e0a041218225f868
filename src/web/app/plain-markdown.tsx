import type { ReactNode } from 'react';

/**
 * Stands in for markdown-to-jsx/react (vite.config.ts aliases it here), which
 * @rjsf/core imports for markdown descriptions and help (opt-in through
 * ui:enableMarkdownInDescription/Help, unused by our uiSchemas), its own
 * FileWidget (we ship our own upload widget) and schema-error notices. Text
 * is shown as is; keeping the parser out saves about 30 kB gzip per page.
 */
export function Markdown({ children }: { children?: ReactNode; options?: unknown }) {
  return <>{children}</>;
}
