import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';

/**
 * The unified diff hunks, three lines of context as git writes them, with
 * `\ No newline at end of file` where a side ends without one. jsdiff finds
 * the lines; an empty result means the texts are equal.
 */
export function textHunkLines(before: string, after: string): string[] {
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3 });
  if (patch.hunks.length === 0) return [];
  return formatPatch(patch, OMIT_HEADERS).replace(/\n$/, '').split('\n');
}
