import { brandFormName } from '../brand-file.ts';
import { postalCodePatterns, indexCountries, type CountryFile } from '../countries.ts';
import { brandLocales } from '../locale.ts';
import type { ProjectFiles } from '../project-files.ts';
import { PROJECT_LAYOUT, type ProjectLayout } from '../project-layout.ts';
import { joinPath } from '../project-path.ts';
import { brandFilesOf, checkProjectBrands } from './brand-project.ts';
import { isRecord, readJson } from './files.ts';
import { checkFormFiles } from './form-files.ts';
import { locateProblems } from './locate.ts';
import { checkCountries, compilesAsPattern, portalFacts } from './portal-facts.ts';
import type { Problem } from './problem.ts';
import { checkLanguages } from './translations.ts';

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
  forms: string[];
  languages: string[];
  /** Each brand file that reads, with the pages it makes. */
  pages: BrandPages[];
}

/**
 * Every check of `npm run validate`, on the project's files (its brands/ and schemas/, or the folders
 * the layout names); every finding with its line and column. The CLI reads the files from disk, the
 * studio from its edits: the same findings in the same words.
 */
export function checkProject(files: ProjectFiles, layout: Partial<ProjectLayout> = {}): ProjectReport {
  const { brandsDir, schemasDir, brandSchema } = { ...PROJECT_LAYOUT, ...layout };
  const facts = portalFacts(files, schemasDir);
  const countryFile = readJson(files, joinPath(schemasDir, 'countries.json'));
  const postalCodes = countryFile.ok && isRecord(countryFile.data) && isRecord(countryFile.data.countries) ? safePatterns(countryFile.data as unknown as CountryFile) : {};
  const languages = checkLanguages(files, schemasDir);
  const forms = checkFormFiles(files, schemasDir, { facts, postalCodes });
  const brandFiles = brandFilesOf(files, brandsDir);
  const brands = brandFiles.flatMap((file) => {
    const read = readJson(files, file);
    return read.ok && isRecord(read.data) ? [{ file, data: read.data }] : [];
  });
  const used = new Set(brands.map(({ data }) => brandFormName(data)));
  const unused: Problem[] = [...facts.forms.keys()]
    .filter((formName) => !used.has(formName))
    .map((formName) => ({ file: joinPath(schemasDir, 'forms', `${formName}.schema.json`), pointer: '', message: `no brand uses the form "${formName}" (a brand chooses it with "form": "${formName}").` }));
  const brandChecks = checkProjectBrands(files, { brandsDir, schemasDir, brandSchema }, facts);
  return {
    problems: locateProblems(files, [...brandChecks.problems, ...checkCountries(files, schemasDir), ...languages.problems, ...forms.problems]),
    warnings: locateProblems(files, [...brandChecks.warnings, ...languages.warnings, ...forms.warnings, ...unused]),
    notes: locateProblems(files, languages.notes),
    brandCount: brandFiles.length,
    forms: [...facts.forms.keys()],
    languages: [...facts.languages.keys()],
    pages: brands.map(({ file, data }) => ({
      id: typeof data.id === 'string' ? data.id : file,
      form: String(brandFormName(data)),
      locales: brandLocales({ locales: Array.isArray(data.locales) ? data.locales.map(String) : undefined }).slice(),
      countries: Array.isArray(data.countries) ? data.countries.map(String) : [],
    })),
  };
}

/** The countries' postal-code patterns that compile (checkCountries reports the others). */
function safePatterns(file: CountryFile): Record<string, string> {
  return Object.fromEntries(Object.entries(postalCodePatterns(indexCountries(file))).filter(([, pattern]) => compilesAsPattern(pattern)));
}
