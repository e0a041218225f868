import { indexCountries, postalCodePatterns, type Countries, type CountryFile } from './countries.ts';
import { formModel, type FormModels } from './form-model.ts';
import { assembleFormSchema, SHARED_FIELDS_FILE, type FormSchema, type SharedFields, type UiSchema } from './form-schema.ts';
import type { RuleData } from './keywords/index.ts';
import type { ProjectFiles } from './project-files.ts';
import { joinPath } from './project-path.ts';
import { indexLanguages, type Languages, type TextTree } from './texts.ts';

/**
 * What the portal is made of besides brands, as data in schemas/: the form
 * forms (forms/<name>.schema.json + .ui.json, sharing forms/fields.json),
 * the languages (i18n/<code>.json) and the countries (countries.json).
 * Read once at start by the server, the staff commands and the build, and
 * by the studio's preview on every edit; `npm run validate` explains every
 * mistake in these files first.
 */
export interface PortalData {
  forms: FormModels;
  languages: Languages;
  countries: Countries;
  /** What the validators' keywords read from the data (postal-code patterns). */
  rules: RuleData;
}

const SCHEMA_SUFFIX = '.schema.json';

/** The names of the files in `dir` ending in `suffix`, without it, sorted; none where the folder is missing. */
function namesOf(files: ProjectFiles, dir: string, suffix: string): string[] {
  return files.list(dir).filter((f) => f.endsWith(suffix)).map((f) => f.slice(0, -suffix.length)).sort();
}

/** The form names: every forms/<name>.schema.json of schemasDir. */
export const formNames = (files: ProjectFiles, schemasDir: string): string[] => namesOf(files, joinPath(schemasDir, 'forms'), SCHEMA_SUFFIX);

/** The language codes: every i18n/<code>.json of schemasDir. */
export const languageCodes = (files: ProjectFiles, schemasDir: string): string[] => namesOf(files, joinPath(schemasDir, 'i18n'), '.json');

/** A data file parsed; one that is missing throws, naming it where it was looked for, as the data is checked (npm run validate) before it is read. */
function parsed<T>(files: ProjectFiles, path: string): T {
  const text = files.text(path);
  if (text === undefined) throw new Error(`${files.root === undefined ? path : `${files.root}/${path}`}: there is no such file; npm run validate says what the portal's data lacks.`);
  return JSON.parse(text) as T;
}

/** The forms, languages and countries of schemasDir, assembled as the server, the build and the studio's preview use them. */
export function portalDataOf(files: ProjectFiles, schemasDir: string): PortalData {
  const at = (...parts: string[]) => joinPath(schemasDir, ...parts);
  const codes = languageCodes(files, schemasDir);
  const languages = indexLanguages(Object.fromEntries(codes.map((code) => [code, parsed<TextTree>(files, at('i18n', `${code}.json`))])));
  const countries = indexCountries(parsed<CountryFile>(files, at('countries.json')));
  const shared = parsed<SharedFields>(files, at('forms', SHARED_FIELDS_FILE));
  const choices = { countries: [...countries.keys()], languages: codes };
  const forms = new Map(
    formNames(files, schemasDir).map((formName) => {
      const source = parsed<FormSchema>(files, at('forms', `${formName}${SCHEMA_SUFFIX}`));
      const uiSchema = parsed<UiSchema>(files, at('forms', `${formName}.ui.json`));
      return [formName, formModel(formName, assembleFormSchema(source, shared, choices), uiSchema)];
    }),
  );
  return { forms, languages, countries, rules: { postalCodes: postalCodePatterns(countries) } };
}
