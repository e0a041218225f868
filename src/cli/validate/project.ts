import { join, resolve } from 'node:path';
import { postalCodePatterns, indexCountries, type CountryFile } from '../../core/countries.ts';
import { BRAND_LAYOUT, brandFilesOf, checkProjectBrands } from './brand-project.ts';
import { displayPath, isRecord, readJson } from './files.ts';
import { checkFormFiles } from './form-files.ts';
import { checkCountries, DATA_LAYOUT, portalFacts, projectSchemasDir } from './portal-facts.ts';
import type { Problem } from './problem.ts';
import { checkLanguages } from './translations.ts';

/** Where the checked files live, relative to the project root. */
export const PROJECT_LAYOUT = { ...BRAND_LAYOUT, ...DATA_LAYOUT } as const;

export interface ProjectReport {
  /** Mistakes: the page would break or refuse to build. */
  problems: Problem[];
  /** What works but falls short: a text that falls back to Dutch, a form no brand uses. */
  warnings: Problem[];
  brandCount: number;
  variants: string[];
  languages: string[];
}

/** Where the checked data lives when not in the project's own brands/ and schemas/ (BRANDS_DIR, SCHEMAS_DIR). */
export interface DataFolders {
  brandsDir?: string;
  schemasDir?: string;
}

/** Every check of `npm run validate`, on the project at rootDir (its brands/ and schemas/, or the folders given). */
export function validateProject(rootDir: string, folders: DataFolders = {}): ProjectReport {
  const root = resolve(rootDir);
  const schemasDir = folders.schemasDir ?? projectSchemasDir(root);
  const facts = portalFacts(root, schemasDir);
  const countryFile = readJson(root, join(schemasDir, 'countries.json'));
  const postalCodes = countryFile.ok && isRecord(countryFile.data) && isRecord(countryFile.data.countries) ? safePatterns(countryFile.data as unknown as CountryFile) : {};
  const languages = checkLanguages(root, schemasDir);
  const forms = checkFormFiles(root, { facts, postalCodes, schemasDir });
  const brandFiles = brandFilesOf(root, folders.brandsDir);
  const brands = brandFiles.map((file) => readJson(root, file));
  const used = new Set(brands.flatMap((read) => (read.ok && isRecord(read.data) && typeof read.data.variant === 'string' ? [read.data.variant] : [])));
  const unused: Problem[] = [...facts.variants.keys()]
    .filter((variant) => !used.has(variant))
    .map((variant) => ({ file: displayPath(root, join(schemasDir, 'forms', `${variant}.schema.json`)), pointer: '', message: `no brand uses the form "${variant}" (a brand chooses it with "variant": "${variant}").` }));
  return {
    problems: [...checkProjectBrands(root, folders), ...checkCountries(root, schemasDir), ...languages.problems, ...forms.problems],
    warnings: [...languages.warnings, ...unused],
    brandCount: brandFiles.length,
    variants: [...facts.variants.keys()],
    languages: [...facts.languages.keys()],
  };
}

/** The countries' postal-code patterns that compile (checkCountries reports the others). */
function safePatterns(file: CountryFile): Record<string, string> {
  return Object.fromEntries(
    Object.entries(postalCodePatterns(indexCountries(file))).filter(([, pattern]) => {
      try {
        new RegExp(pattern, 'u');
        return true;
      } catch {
        return false;
      }
    }),
  );
}
