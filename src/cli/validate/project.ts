import { join, resolve } from 'node:path';
import { brandFormName } from '../../core/brand-file.ts';
import { postalCodePatterns, indexCountries, type CountryFile } from '../../core/countries.ts';
import { brandLocales } from '../../core/locale.ts';
import { BRAND_LAYOUT, brandFilesOf, checkProjectBrands } from './brand-project.ts';
import { displayPath, isRecord, readJson } from './files.ts';
import { checkFormFiles } from './form-files.ts';
import { locateProblems } from './locate.ts';
import { checkCountries, DATA_LAYOUT, portalFacts, projectSchemasDir } from './portal-facts.ts';
import type { Problem } from './problem.ts';
import { checkLanguages } from './translations.ts';

/** Where the checked files live, relative to the project root. */
export const PROJECT_LAYOUT = { ...BRAND_LAYOUT, ...DATA_LAYOUT } as const;

/** The pages a brand file makes: each of its languages in each of its countries. */
export interface BrandPages {
  id: string;
  form: string;
  locales: string[];
  countries: string[];
}

export interface ProjectReport {
  /** Mistakes: the page would break or refuse to build. */
  problems: Problem[];
  /** What works but falls short: texts that fall back to Dutch, a form no brand uses. */
  warnings: Problem[];
  /** Detail behind a warning, shown on request (`--fallbacks`, `--format json`): each text that falls back. */
  notes: Problem[];
  brandCount: number;
  variants: string[];
  languages: string[];
  /** Each brand file that reads, with the pages it makes. */
  pages: BrandPages[];
}

/** Where the checked data lives when not in the project's own brands/ and schemas/ (BRANDS_DIR, SCHEMAS_DIR). */
export interface DataFolders {
  brandsDir?: string;
  schemasDir?: string;
}

/** Every check of `npm run validate`, on the project at rootDir (its brands/ and schemas/, or the folders given); every finding with its line and column. */
export function validateProject(rootDir: string, folders: DataFolders = {}): ProjectReport {
  const root = resolve(rootDir);
  const schemasDir = folders.schemasDir ?? projectSchemasDir(root);
  const facts = portalFacts(root, schemasDir);
  const countryFile = readJson(root, join(schemasDir, 'countries.json'));
  const postalCodes = countryFile.ok && isRecord(countryFile.data) && isRecord(countryFile.data.countries) ? safePatterns(countryFile.data as unknown as CountryFile) : {};
  const languages = checkLanguages(root, schemasDir);
  const forms = checkFormFiles(root, { facts, postalCodes, schemasDir });
  const brandFiles = brandFilesOf(root, folders.brandsDir);
  const brands = brandFiles.flatMap((file) => {
    const read = readJson(root, file);
    return read.ok && isRecord(read.data) ? [{ file, data: read.data }] : [];
  });
  const used = new Set(brands.map(({ data }) => brandFormName(data)));
  const unused: Problem[] = [...facts.variants.keys()]
    .filter((variant) => !used.has(variant))
    .map((variant) => ({ file: displayPath(root, join(schemasDir, 'forms', `${variant}.schema.json`)), pointer: '', message: `no brand uses the form "${variant}" (a brand chooses it with "form": "${variant}").` }));
  const brandChecks = checkProjectBrands(root, folders);
  return {
    problems: locateProblems(root, [...brandChecks.problems, ...checkCountries(root, schemasDir), ...languages.problems, ...forms.problems]),
    warnings: locateProblems(root, [...brandChecks.warnings, ...languages.warnings, ...forms.warnings, ...unused]),
    notes: locateProblems(root, languages.notes),
    brandCount: brandFiles.length,
    variants: [...facts.variants.keys()],
    languages: [...facts.languages.keys()],
    pages: brands.map(({ file, data }) => ({
      id: typeof data.id === 'string' ? data.id : displayPath(root, file),
      form: String(brandFormName(data)),
      locales: brandLocales({ locales: Array.isArray(data.locales) ? data.locales.map(String) : undefined }).slice(),
      countries: Array.isArray(data.countries) ? data.countries.map(String) : [],
    })),
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
