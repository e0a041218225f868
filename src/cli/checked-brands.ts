// Imports name their .ts files: vite.config.ts loads this module (see validate/brand-project.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brandFromFile } from '../core/brand-file.ts';
import type { Brand } from '../core/types.ts';
import { checkBrandFiles } from './validate/brand-files.ts';
import { BRAND_LAYOUT } from './validate/brand-project.ts';
import { displayPath } from './validate/files.ts';
import { locateProblems } from './validate/locate.ts';
import { portalFacts } from './validate/portal-facts.ts';
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

/** The brand files in brandsDir (the project's brands/, or BRANDS_DIR), sorted, as absolute paths. */
function brandFilesIn(brandsDir: string): string[] {
  return existsSync(brandsDir) ? readdirSync(brandsDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(brandsDir, f)) : [];
}

/** Validate's problems with the brand files in brandsDir, as printed lines (empty: all is well). */
export function brandProblemLines(root: string, brandsDir: string): string[] {
  const files = brandFilesIn(brandsDir);
  const problems =
    files.length === 0
      ? [{ file: displayPath(root, brandsDir), pointer: '', message: 'there are no brand files (<id>.json) here.' }]
      : checkBrandFiles(files, { root, schemaFile: join(root, BRAND_LAYOUT.brandSchema), facts: portalFacts(root) }).problems;
  return locateProblems(root, problems).map((problem) => formatProblem(problem));
}

/**
 * The brand files, parsed, after the same checks as npm run validate: the
 * build, the dev server and npm start never turn a broken brand into a page.
 */
export function checkedBrands(root: string, brandsDir: string): { files: string[]; brands: Brand[] } {
  const lines = brandProblemLines(root, brandsDir);
  if (lines.length > 0) throw new BrandCheckError(lines);
  const files = brandFilesIn(brandsDir);
  return { files, brands: files.map((f) => brandFromFile(JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>)) };
}
