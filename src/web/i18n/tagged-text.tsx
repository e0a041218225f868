import type { ReactNode } from 'react';

/**
 * Renders a translation with one `<tag>…</tag>` pair (e.g. "… het
 * <privacy>privacybeleid</privacy>."), wrapping the tagged part with
 * `wrap`. One small function instead of react-i18next's Trans, which
 * brings an HTML parser for this single link.
 */
export function taggedText(text: string, tag: string, wrap: (inner: string) => ReactNode): ReactNode {
  const match = new RegExp(`<${tag}>(.*?)</${tag}>`).exec(text);
  if (!match) return text;
  return (
    <>
      {text.slice(0, match.index)}
      {wrap(match[1])}
      {text.slice(match.index + match[0].length)}
    </>
  );
}

/** The same text without its tags, e.g. for the error summary's link text. */
export function untagged(text: string): string {
  return text.replace(/<\/?\w+>/g, '');
}
