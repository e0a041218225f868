// Imports name their .ts files: vite.config.ts loads this module (dev overlay, build), and Vite's
// native config loader will need the extensions.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkBrandFiles, type BrandFileReport } from './brand-files.ts';
import { portalFacts } from './portal-facts.ts';

/** Where brand files and their schema live, relative to the project root. */
export const BRAND_LAYOUT = { brandsDir: 'brands', brandSchema: 'schemas/brand.schema.json' } as const;

/** brands/*.json of the project at rootDir, sorted, as absolute paths. */
export function brandFilesOf(rootDir: string): string[] {
  const brandsDir = join(resolve(rootDir), BRAND_LAYOUT.brandsDir);
  return existsSync(brandsDir) ? readdirSync(brandsDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(brandsDir, f)) : [];
}

/** The brand checks of npm run validate, on every brand file of the project. */
export function checkProjectBrands(rootDir: string): BrandFileReport {
  const root = resolve(rootDir);
  const files = brandFilesOf(root);
  if (files.length === 0) return { problems: [{ file: BRAND_LAYOUT.brandsDir, pointer: '', message: 'there are no brand files (brands/<id>.json) here.' }], warnings: [] };
  return checkBrandFiles(files, { root, schemaFile: join(root, BRAND_LAYOUT.brandSchema), facts: portalFacts(root) });
}
