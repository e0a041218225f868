import { join, resolve } from 'node:path';
import { brandFormName } from '../../core/brand-file';
import { postalCodePatterns, indexCountries, type CountryFile } from '../../core/countries';
import { brandLocales } from '../../core/locale';
import { BRAND_LAYOUT, brandFilesOf, checkProjectBrands } from './brand-project';
import { displayPath, isRecord, readJson } from './files';
import { checkFormFiles } from './form-files';
import { locateProblems } from './locate';
import { checkCountries, DATA_LAYOUT, portalFacts } from './portal-facts';
import type { Problem } from './problem';
import { checkLanguages } from './translations';

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

/** Every check of `npm run validate`, on the project at rootDir; every finding with its line and column. */
export function validateProject(rootDir: string): ProjectReport {
  const root = resolve(rootDir);
  const facts = portalFacts(root);
  const countryFile = readJson(root, join(root, DATA_LAYOUT.countries));
  const postalCodes = countryFile.ok && isRecord(countryFile.data) && isRecord(countryFile.data.countries) ? safePatterns(countryFile.data as unknown as CountryFile) : {};
  const languages = checkLanguages(root);
  const forms = checkFormFiles(root, { facts, postalCodes });
  const brands = brandFilesOf(root).flatMap((file) => {
    const read = readJson(root, file);
    return read.ok && isRecord(read.data) ? [{ file, data: read.data }] : [];
  });
  const used = new Set(brands.map(({ data }) => brandFormName(data)));
  const unused: Problem[] = [...facts.variants.keys()]
    .filter((variant) => !used.has(variant))
    .map((variant) => ({ file: `${DATA_LAYOUT.formsDir}/${variant}.schema.json`, pointer: '', message: `no brand uses the form "${variant}" (a brand chooses it with "form": "${variant}").` }));
  const brandChecks = checkProjectBrands(root);
  return {
    problems: locateProblems(root, [...brandChecks.problems, ...checkCountries(root), ...languages.problems, ...forms.problems]),
    warnings: locateProblems(root, [...brandChecks.warnings, ...languages.warnings, ...forms.warnings, ...unused]),
    notes: locateProblems(root, languages.notes),
    brandCount: brandFilesOf(root).length,
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
