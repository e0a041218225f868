import { join, resolve } from 'node:path';
import { postalCodePatterns, indexCountries, type CountryFile } from '../../core/countries';
import { BRAND_LAYOUT, brandFilesOf, checkProjectBrands } from './brand-project';
import { isRecord, readJson } from './files';
import { checkFormFiles } from './form-files';
import { checkCountries, DATA_LAYOUT, portalFacts } from './portal-facts';
import type { Problem } from './problem';
import { checkLanguages } from './translations';

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

/** Every check of `npm run validate`, on the project at rootDir. */
export function validateProject(rootDir: string): ProjectReport {
  const root = resolve(rootDir);
  const facts = portalFacts(root);
  const countryFile = readJson(root, join(root, DATA_LAYOUT.countries));
  const postalCodes = countryFile.ok && isRecord(countryFile.data) && isRecord(countryFile.data.countries) ? safePatterns(countryFile.data as unknown as CountryFile) : {};
  const languages = checkLanguages(root);
  const forms = checkFormFiles(root, { facts, postalCodes });
  const brands = brandFilesOf(root).map((file) => readJson(root, file));
  const used = new Set(brands.flatMap((read) => (read.ok && isRecord(read.data) && typeof read.data.variant === 'string' ? [read.data.variant] : [])));
  const unused: Problem[] = [...facts.variants.keys()]
    .filter((variant) => !used.has(variant))
    .map((variant) => ({ file: `${DATA_LAYOUT.formsDir}/${variant}.schema.json`, pointer: '', message: `no brand uses the form "${variant}" (a brand chooses it with "variant": "${variant}").` }));
  return {
    problems: [...checkProjectBrands(root), ...checkCountries(root), ...languages.problems, ...forms.problems],
    warnings: [...languages.warnings, ...unused],
    brandCount: brandFilesOf(root).length,
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
