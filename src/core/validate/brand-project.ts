// Imports name their .ts files: vite.config.ts loads this module (dev overlay, build), and Vite's
// native config loader will need the extensions.
import type { ProjectFiles } from '../project-files.ts';
import type { ProjectLayout } from '../project-layout.ts';
import { joinPath } from '../project-path.ts';
import { checkBrandFiles, type BrandFileReport } from './brand-files.ts';
import type { PortalFacts } from './portal-facts.ts';

/** The *.json in brandsDir, sorted, as project paths. */
export function brandFilesOf(files: ProjectFiles, brandsDir: string): string[] {
  return files.list(brandsDir).filter((f) => f.endsWith('.json')).sort().map((f) => joinPath(brandsDir, f));
}

/** The brand checks of npm run validate, on every brand file of the layout's brandsDir, against what the data offers (facts). */
export function checkProjectBrands(files: ProjectFiles, layout: ProjectLayout, facts: PortalFacts): BrandFileReport {
  const brandFiles = brandFilesOf(files, layout.brandsDir);
  if (brandFiles.length === 0) {
    return { problems: [{ file: layout.brandsDir, pointer: '', message: 'there are no brand files (brands/<id>.json) here.' }], warnings: [] };
  }
  return checkBrandFiles(brandFiles, { files, schemaFile: layout.brandSchema, facts });
}
