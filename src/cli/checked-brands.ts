// Imports name their .ts files: vite.config.ts loads this module (see validate/brand-project.ts).
import { readFileSync } from 'node:fs';
import type { Brand } from '../core/types.ts';
import { brandFilesOf, checkProjectBrands } from './validate/brand-project.ts';
import { formatProblem } from './validate/problem.ts';

/** Thrown when the brand files do not pass npm run validate; the message is validate's own. */
export class BrandCheckError extends Error {
  constructor(readonly lines: string[]) {
    super(`npm run validate found problems; the page is built from these files, so fix them and save:\n\n${lines.join('\n')}`);
    this.name = 'BrandCheckError';
    // The message says it all; a stack trace in the dev overlay would only bury it.
    this.stack = '';
  }
}

/** Validate's problems with the brand files, as printed lines (empty: all is well). */
export function brandProblemLines(root: string): string[] {
  return checkProjectBrands(root).map(formatProblem);
}

/**
 * The brand files, parsed, after the same checks as npm run validate: the
 * build, the dev server and npm start never turn a broken brand into a page.
 */
export function checkedBrands(root: string): { files: string[]; brands: Brand[] } {
  const lines = brandProblemLines(root);
  if (lines.length > 0) throw new BrandCheckError(lines);
  const files = brandFilesOf(root);
  return { files, brands: files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Brand) };
}
