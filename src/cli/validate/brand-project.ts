// Imports name their .ts files: vite.config.ts loads this module (dev overlay, build), and Vite's
// native config loader will need the extensions.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkBrandFiles, type BrandFileReport } from './brand-files.ts';
import { displayPath } from './files.ts';
import { portalFacts } from './portal-facts.ts';

/** Where brand files and their schema live, relative to the project root. */
export const BRAND_LAYOUT = { brandsDir: 'brands', brandSchema: 'schemas/brand.schema.json' } as const;

/** brands/*.json of the project at rootDir (or the *.json in brandsDir), sorted, as absolute paths. */
export function brandFilesOf(rootDir: string, brandsDir = join(resolve(rootDir), BRAND_LAYOUT.brandsDir)): string[] {
  return existsSync(brandsDir) ? readdirSync(brandsDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(brandsDir, f)) : [];
}

/** The brand checks of npm run validate, on every brand file of the project (or of brandsDir, against the data in schemasDir). */
export function checkProjectBrands(rootDir: string, { brandsDir, schemasDir }: { brandsDir?: string; schemasDir?: string } = {}): BrandFileReport {
  const root = resolve(rootDir);
  const files = brandFilesOf(root, brandsDir);
  if (files.length === 0) {
    return { problems: [{ file: brandsDir ? displayPath(root, brandsDir) : BRAND_LAYOUT.brandsDir, pointer: '', message: 'there are no brand files (brands/<id>.json) here.' }], warnings: [] };
  }
  return checkBrandFiles(files, { root, schemaFile: join(root, BRAND_LAYOUT.brandSchema), facts: portalFacts(root, schemasDir) });
}
