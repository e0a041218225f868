// Imports name their .ts files: vite.config.ts loads this module through checked-project.ts.
import { join } from 'node:path';
import type { TextTree } from '../../core/texts.ts';
import { languageCodes, variantNames } from '../../server/portal-data.ts';
import { displayPath, isRecord, readJson } from './files.ts';
import type { Problem } from './problem.ts';

/** Where the portal's data lives, relative to the project root. */
export const DATA_LAYOUT = {
  formsDir: 'schemas/forms',
  i18nDir: 'schemas/i18n',
  countries: 'schemas/countries.json',
} as const;

/** What brand files may name, as far as the files can be read (their own mistakes are checked elsewhere). */
export interface PortalFacts {
  /** Variant names (forms/<name>.schema.json), each with how its form treats the brand field. */
  variants: Map<string, BrandFieldUse>;
  /** Language files that read as JSON, by code. */
  languages: Map<string, TextTree>;
  countries: Set<string>;
}

/** How a variant treats the brand field (role brand): not asked (hidden: the brand file's name is sent), asked, or absent. */
export type BrandFieldUse = 'hidden' | 'shown' | 'none';

/** The folder of forms, languages and countries the checks read: the project's schemas/ unless SCHEMAS_DIR names another. */
export const projectSchemasDir = (root: string): string => join(root, 'schemas');

export const variantFiles = (root: string, schemasDir = projectSchemasDir(root)): string[] => variantNames(schemasDir);
export const languageFiles = (root: string, schemasDir = projectSchemasDir(root)): string[] => languageCodes(schemasDir);

/** The countries of countries.json, read leniently (checkCountries reports what is wrong with it). */
function countryCodes(root: string, schemasDir: string): Set<string> {
  const read = readJson(root, join(schemasDir, 'countries.json'));
  return read.ok && isRecord(read.data) && isRecord(read.data.countries) ? new Set(Object.keys(read.data.countries)) : new Set();
}

/** How the variant's form treats its brand field: by the field's role in the schema (or a shared definition) and its widget. */
function brandFieldUse(root: string, schemasDir: string, variant: string): BrandFieldUse {
  const schema = readJson(root, join(schemasDir, 'forms', `${variant}.schema.json`));
  const ui = readJson(root, join(schemasDir, 'forms', `${variant}.ui.json`));
  const shared = readJson(root, join(schemasDir, 'forms', 'fields.json'));
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

export function portalFacts(root: string, schemasDir = projectSchemasDir(root)): PortalFacts {
  const languages = new Map<string, TextTree>();
  for (const code of languageFiles(root, schemasDir)) {
    const read = readJson(root, join(schemasDir, 'i18n', `${code}.json`));
    if (read.ok && isRecord(read.data)) languages.set(code, read.data as TextTree);
  }
  return {
    variants: new Map(variantFiles(root, schemasDir).map((variant) => [variant, brandFieldUse(root, schemasDir, variant)])),
    languages,
    countries: countryCodes(root, schemasDir),
  };
}

/** A list of names as a sentence lists them: "a", "b" or "c". */
export function choices(names: Iterable<string>): string {
  const quoted = [...names].map((n) => `"${n}"`);
  return quoted.length <= 1 ? (quoted[0] ?? 'none') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** countries.json: an object of countries, each with a valid postal-code pattern if any. */
export function checkCountries(root: string, schemasDir = projectSchemasDir(root)): Problem[] {
  const file = join(schemasDir, 'countries.json');
  const read = readJson(root, file);
  if (!read.ok) return read.problems;
  const shown = displayPath(root, file);
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
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
