// Imports name their .ts files: vite.config.ts loads this module through checked-project.ts.
import { languageCodes, formNames } from '../portal-data.ts';
import type { ProjectFiles } from '../project-files.ts';
import { joinPath } from '../project-path.ts';
import type { TextTree } from '../texts.ts';
import { isRecord, readJson } from './files.ts';
import type { Problem } from './problem.ts';

/** What brand files may name, as far as the files can be read (their own mistakes are checked elsewhere). */
export interface PortalFacts {
  /** Variant names (forms/<name>.schema.json), each with how its form treats the brand field. */
  forms: Map<string, BrandFieldUse>;
  /** Language files that read as JSON, by code. */
  languages: Map<string, TextTree>;
  countries: Set<string>;
}

/** How a form treats the brand field (role brand): not asked (hidden: the brand file's name is sent), asked, or absent. */
export type BrandFieldUse = 'hidden' | 'shown' | 'none';

/** The countries of countries.json, read leniently (checkCountries reports what is wrong with it). */
function countryCodes(files: ProjectFiles, schemasDir: string): Set<string> {
  const read = readJson(files, joinPath(schemasDir, 'countries.json'));
  return read.ok && isRecord(read.data) && isRecord(read.data.countries) ? new Set(Object.keys(read.data.countries)) : new Set();
}

/** How the form treats its brand field: by the field's role in the schema (or a shared definition) and its widget. */
function brandFieldUse(files: ProjectFiles, schemasDir: string, formName: string): BrandFieldUse {
  const schema = readJson(files, joinPath(schemasDir, 'forms', `${formName}.schema.json`));
  const ui = readJson(files, joinPath(schemasDir, 'forms', `${formName}.ui.json`));
  const shared = readJson(files, joinPath(schemasDir, 'forms', 'fields.json'));
  const definitions = shared.ok && isRecord(shared.data) && isRecord(shared.data.definitions) ? shared.data.definitions : {};
  const properties = schema.ok && isRecord(schema.data) && isRecord(schema.data.properties) ? schema.data.properties : {};
  const roleOf = (property: unknown): unknown => {
    if (!isRecord(property)) return undefined;
    if (property.role !== undefined) return property.role;
    const ref = typeof property.$ref === 'string' ? /^fields\.json#\/definitions\/(.+)$/.exec(property.$ref) : null;
    const definition = ref ? definitions[ref[1]] : undefined;
    return isRecord(definition) ? definition.role : undefined;
  };
  const field = Object.keys(properties).find((name) => roleOf(properties[name]) === 'brand');
  if (field === undefined) return 'none';
  const entry = ui.ok && isRecord(ui.data) ? ui.data[field] : undefined;
  return isRecord(entry) && entry['ui:widget'] === 'hidden' ? 'hidden' : 'shown';
}

/** What the data in schemasDir (a project path) offers a brand file. */
export function portalFacts(files: ProjectFiles, schemasDir: string): PortalFacts {
  const languages = new Map<string, TextTree>();
  for (const code of languageCodes(files, schemasDir)) {
    const read = readJson(files, joinPath(schemasDir, 'i18n', `${code}.json`));
    if (read.ok && isRecord(read.data)) languages.set(code, read.data as TextTree);
  }
  return {
    forms: new Map(formNames(files, schemasDir).map((formName) => [formName, brandFieldUse(files, schemasDir, formName)])),
    languages,
    countries: countryCodes(files, schemasDir),
  };
}

/** A list of names as a sentence lists them: "a", "b" or "c". */
export function choices(names: Iterable<string>): string {
  const quoted = [...names].map((n) => `"${n}"`);
  return quoted.length <= 1 ? (quoted[0] ?? 'none') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** countries.json: an object of countries, each with a valid postal-code pattern if any. */
export function checkCountries(files: ProjectFiles, schemasDir: string): Problem[] {
  const shown = joinPath(schemasDir, 'countries.json');
  const read = readJson(files, shown);
  if (!read.ok) return read.problems;
  const countries = isRecord(read.data) ? read.data.countries : undefined;
  if (!isRecord(countries) || Object.keys(countries).length === 0) {
    return [{ file: shown, pointer: '/countries', message: 'list the countries as "countries": { "be": { … }, "nl": { … } }, at least one.' }];
  }
  return Object.entries(countries).flatMap(([code, facts]): Problem[] => {
    const at = `/countries/${code}`;
    if (!/^[a-z]{2}$/.test(code)) return [{ file: shown, pointer: at, message: `"${code}" is not a country code: write the two lower-case letters of ISO 3166, e.g. "de" for Germany.` }];
    if (!isRecord(facts)) return [{ file: shown, pointer: at, message: 'a country is a group between { and }, e.g. { "postalCode": "^[0-9]{5}$" } or {}.' }];
    const problems: Problem[] = [];
    for (const key of Object.keys(facts).filter((k) => k !== 'postalCode' && k !== 'addressLookup')) {
      problems.push({ file: shown, pointer: `${at}/${key}`, message: `"${key}" is not something a country has here; a country has "postalCode" (a pattern) and "addressLookup" (true or false).` });
    }
    if (facts.postalCode !== undefined && !validPattern(facts.postalCode)) {
      problems.push({ file: shown, pointer: `${at}/postalCode`, message: `this is not a pattern a postal code can be checked with; write a regular expression such as "^[0-9]{5}$" (five digits).` });
    }
    if (facts.addressLookup !== undefined && typeof facts.addressLookup !== 'boolean') {
      problems.push({ file: shown, pointer: `${at}/addressLookup`, message: 'write true (street and city are looked up from postal code and house number) or false, without quotes.' });
    }
    return problems;
  });
}

function validPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && compilesAsPattern(pattern);
}

/** Whether a postal-code pattern compiles as the postalCode keyword compiles it (with the u flag). */
export function compilesAsPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
