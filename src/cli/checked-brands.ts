import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Brand } from '../core/types';
import { formatProblem } from './validate/problem';
import { PROJECT_LAYOUT, validateProject } from './validate/project';

/** Thrown when brands/ or schemas/ do not pass npm run validate; the message is validate's own. */
export class BrandCheckError extends Error {
  constructor(readonly lines: string[]) {
    super(`npm run validate found problems; the page is built from these files, so fix them and save:\n\n${lines.join('\n')}`);
    this.name = 'BrandCheckError';
    // The message says it all; a stack trace in the dev overlay would only bury it.
    this.stack = '';
  }
}

/** Validate's problems as printed lines (empty: all is well). */
export function brandProblemLines(root: string): string[] {
  return validateProject(root).problems.map(formatProblem);
}

/**
 * The brand files, parsed, after the same checks as npm run validate: the
 * build and the dev server never turn a broken brand into a page.
 */
export function checkedBrands(root: string): { files: string[]; brands: Brand[] } {
  const lines = brandProblemLines(root);
  if (lines.length > 0) throw new BrandCheckError(lines);
  const dir = join(root, PROJECT_LAYOUT.brandsDir);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  return { files, brands: files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Brand) };
}
