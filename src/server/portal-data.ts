// Extensions written out: vite.config.ts loads this module (through src/cli/validate).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexCountries, postalCodePatterns, type Countries, type CountryFile } from '../core/countries.ts';
import { formModel, type FormModels } from '../core/form-model.ts';
import { assembleFormSchema, SHARED_FIELDS_FILE, type FormSchema, type SharedFields, type UiSchema } from '../core/form-schema.ts';
import type { RuleData } from '../core/keywords/index';
import { indexLanguages, type Languages, type TextTree } from '../core/texts.ts';

/**
 * What the portal is made of besides brands, as data in schemas/: the form
 * variants (forms/<name>.schema.json + .ui.json, sharing forms/fields.json),
 * the languages (i18n/<code>.json) and the countries (countries.json).
 * Read once at start by the server, the staff commands and the build;
 * `npm run validate` explains every mistake in these files first.
 */
export interface PortalData {
  forms: FormModels;
  languages: Languages;
  countries: Countries;
  /** What the validators' keywords read from the data (postal-code patterns). */
  rules: RuleData;
}

const SCHEMA_SUFFIX = '.schema.json';

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The names of the files in `dir` ending in `suffix`, without it, sorted; none where the folder is missing. */
function namesOf(dir: string, suffix: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(suffix)).map((f) => f.slice(0, -suffix.length)).sort() : [];
}

/** The variant names: every forms/<name>.schema.json. */
export const variantNames = (schemasDir: string): string[] => namesOf(join(schemasDir, 'forms'), SCHEMA_SUFFIX);

/** The language codes: every i18n/<code>.json. */
export const languageCodes = (schemasDir: string): string[] => namesOf(join(schemasDir, 'i18n'), '.json');

export function loadPortalData(schemasDir: string): PortalData {
  const codes = languageCodes(schemasDir);
  const languages = indexLanguages(Object.fromEntries(codes.map((code) => [code, readJson<TextTree>(join(schemasDir, 'i18n', `${code}.json`))])));
  const countries = indexCountries(readJson<CountryFile>(join(schemasDir, 'countries.json')));
  const shared = readJson<SharedFields>(join(schemasDir, 'forms', SHARED_FIELDS_FILE));
  const choices = { countries: [...countries.keys()], languages: codes };
  const forms = new Map(
    variantNames(schemasDir).map((variant) => {
      const source = readJson<FormSchema>(join(schemasDir, 'forms', `${variant}${SCHEMA_SUFFIX}`));
      const uiSchema = readJson<UiSchema>(join(schemasDir, 'forms', `${variant}.ui.json`));
      return [variant, formModel(variant, assembleFormSchema(source, shared, choices), uiSchema)];
    }),
  );
  return { forms, languages, countries, rules: { postalCodes: postalCodePatterns(countries) } };
}
