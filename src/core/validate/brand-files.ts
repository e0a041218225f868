import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { brandFormName, FORM_KEY, FORMER_FORM_KEY } from '../brand-file.ts';
import { deliveryUrlProblem } from '../delivery-url.ts';
import { DEFAULT_LOCALES } from '../locale.ts';
import type { ProjectFiles } from '../project-files.ts';
import { dirnameOf, relativePath, resolvePath } from '../project-path.ts';
import type { Brand } from '../types.ts';
import { assetFileProblem } from './asset-file.ts';
import { idPatternOf, idProblems } from './brand-ids.ts';
import { plainErrors } from './brand-schema-messages.ts';
import { themeContrastProblems } from './contrast.ts';
import { isRecord, readJson } from './files.ts';
import { nearestName } from './nearest.ts';
import { choices, type PortalFacts } from './portal-facts.ts';
import { toPointer, type Problem } from './problem.ts';

export interface BrandCheckOptions {
  /** Where the brand files, their pictures and the brand schema are read. */
  files: ProjectFiles;
  /** Project path of brand.schema.json. */
  schemaFile: string;
  /** The forms, languages and countries a brand file may name. */
  facts: PortalFacts;
}

/** A brand file's problems, and what works but should change (the former key "variant"). */
export interface BrandFileReport {
  problems: Problem[];
  warnings: Problem[];
}

/**
 * Checks brand files one by one (schema, $schema, id, assets, contrast),
 * then across files (unique ids). Files are given as project paths, so
 * tests can check fixtures that live outside brands/.
 */
export function checkBrandFiles(brandFiles: readonly string[], options: BrandCheckOptions): BrandFileReport {
  const schema = readJson(options.files, options.schemaFile);
  if (!schema.ok) return { problems: schema.problems, warnings: [] };
  const compiled = compileBrandSchema(schema.data);
  if (typeof compiled === 'string') {
    return { problems: [{ file: options.schemaFile, pointer: '', message: `the brand schema does not compile, so no brand file could be checked. A developer should look at it: ${compiled}` }], warnings: [] };
  }
  const validate = compiled;
  const read = brandFiles.map((file) => ({ file, result: readJson(options.files, file) }));
  const ids = idProblems(
    read.map(({ file, result }) => ({ file, id: result.ok && isRecord(result.data) && typeof result.data.id === 'string' ? result.data.id : undefined })),
    idPatternOf(schema.data),
  );
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  for (const { file, result } of read) {
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const brand = result.data;
    const inFile = (pointer: string, message: string): Problem => ({ file, pointer, message });
    const portal = isRecord(brand) ? portalProblems(brand, options.facts) : [];
    // Where validate knows the portal's own names (its forms, countries, languages), its sentence says more than the schema's.
    const said = new Set(portal.filter((p) => p.replacesSchema).map((p) => p.pointer));
    if (!validate(brand)) {
      for (const error of plainErrors(validate.errors ?? [], schema.data)) {
        if (!said.has(error.pointer)) problems.push({ ...inFile(error.pointer, error.message), ...(error.atName ? { atName: true } : {}) });
      }
    }
    if (!isRecord(brand)) continue;
    problems.push(...schemaRefProblems(brand, file, options).map((m) => inFile('/$schema', m)));
    problems.push(...(ids.get(file) ?? []).map((m) => inFile('/id', m)));
    for (const key of ['logo', 'favicon'] as const) {
      // A name the schema already rejected would only repeat itself as "file not found".
      if (problems.some((p) => p.file === file && p.pointer === `/${key}`)) continue;
      const message = assetProblem(brand[key], file, options.files, key);
      if (message) problems.push(inFile(`/${key}`, message));
    }
    const webhookUrl = '/serviceDesk/webhook/url';
    if (!problems.some((p) => p.file === file && p.pointer === webhookUrl)) {
      const message = webhookProblem(brand);
      if (message) problems.push(inFile(webhookUrl, message));
    }
    for (const { pointer, message, warning, atName } of portal) {
      if (warning) warnings.push({ ...inFile(pointer, message), ...(atName ? { atName } : {}) });
      else if (!problems.some((p) => p.file === file && p.pointer === pointer)) problems.push(inFile(pointer, message));
    }
    if (isRecord(brand.theme)) {
      for (const { pointer, message } of themeContrastProblems(brand.theme as Partial<Brand['theme']>)) {
        problems.push(inFile(pointer, message));
      }
    }
  }
  return { problems, warnings };
}

/** A language as people read its code: the code, and its own name from its file (`"de" (Deutsch)`). */
function languageName(code: string, facts: PortalFacts): string {
  const language = facts.languages.get(code)?.language;
  const name = typeof language === 'object' ? language.name : undefined;
  return typeof name === 'string' ? `"${code}" (${name})` : `"${code}"`;
}

interface PortalProblem {
  pointer: string;
  message: string;
  /** Said instead of the schema's own sentence for the same place. */
  replacesSchema?: boolean;
  /** Works, but should change. */
  warning?: boolean;
  atName?: boolean;
}

/**
 * What a brand file names that the portal must have (its form, languages and
 * countries: schemas/), the brand field its form asks for or not, and every
 * text in each of its languages.
 */
function portalProblems(brand: Record<string, unknown>, facts: PortalFacts): PortalProblem[] {
  const problems: PortalProblem[] = [...formKeyProblems(brand, facts)];
  const formName = brandFormName(brand);
  const mode = isRecord(brand.brandField) ? brand.brandField.mode : undefined;
  const use = typeof formName === 'string' ? facts.forms.get(formName) : undefined;
  if (use === 'hidden' && mode !== undefined && mode !== 'fixed') {
    problems.push({ pointer: '/brandField/mode', message: `the form "${String(formName)}" does not ask for the brand: it sends the brand's name itself, so mode must be "fixed".` });
  }
  if (use === 'shown' && mode === 'fixed') {
    problems.push({ pointer: '/brandField/mode', message: `the form "${String(formName)}" asks the customer for the brand, so mode must be "choice" (a dropdown) or "text" (free text).` });
  }
  const languages = [...facts.languages.keys()];
  const known = (code: unknown, what: string, pointer: string) => {
    const message = typeof code === 'string' ? codeProblem(code, languages, LANGUAGE_CODES, what) : undefined;
    if (message) problems.push({ pointer, message, replacesSchema: true });
  };
  const locales: unknown[] = Array.isArray(brand.locales) ? brand.locales : [...DEFAULT_LOCALES];
  if (Array.isArray(brand.locales)) brand.locales.forEach((code, i) => known(code, "the brand's pages", toPointer(['locales', i])));
  if (isRecord(brand.serviceDesk)) known(brand.serviceDesk.language, "the desk's mail", '/serviceDesk/language');
  if (Array.isArray(brand.countries)) {
    brand.countries.forEach((code, i) => {
      const message = typeof code === 'string' ? codeProblem(code, [...facts.countries], COUNTRY_CODES, '') : undefined;
      if (message) problems.push({ pointer: toPointer(['countries', i]), message, replacesSchema: true });
    });
  }
  // Every text a visitor reads, in each language the brand offers.
  const header = isRecord(brand.header) ? brand.header : {};
  for (const key of ['banner', 'title']) {
    const text = header[key];
    if (!isRecord(text)) continue;
    for (const code of locales.filter((c): c is string => typeof c === 'string' && facts.languages.has(c) && !Object.hasOwn(text, c))) {
      problems.push({ pointer: toPointer(['header', key]), message: `the text in ${languageName(code, facts)} is missing. The brand's pages are in ${locales.map((l) => languageName(String(l), facts)).join(' and ')}: add "${code}": "…" inside it.` });
    }
  }
  return problems;
}

/** The key naming the brand's form: "form" (or the former "variant", with a warning), once, naming a form of schemas/forms. */
function formKeyProblems(brand: Record<string, unknown>, facts: PortalFacts): PortalProblem[] {
  const hasForm = Object.hasOwn(brand, FORM_KEY);
  const hasFormer = Object.hasOwn(brand, FORMER_FORM_KEY);
  if (hasForm && hasFormer) {
    return [{ pointer: `/${FORMER_FORM_KEY}`, message: `the form is named twice, under "${FORM_KEY}" and under "${FORMER_FORM_KEY}" (its former name). Remove "${FORMER_FORM_KEY}".`, atName: true }];
  }
  const key = hasFormer ? FORMER_FORM_KEY : FORM_KEY;
  const name = brand[key];
  const problems: PortalProblem[] = [];
  if (hasFormer) {
    problems.push({ pointer: `/${key}`, atName: true, warning: true, message: `"${FORMER_FORM_KEY}" is now called "${FORM_KEY}": rename it ("${FORM_KEY}": ${JSON.stringify(name)}). "${FORMER_FORM_KEY}" still works for now.` });
  }
  const message = typeof name === 'string' ? formNameProblem(name, [...facts.forms.keys()]) : undefined;
  if (message) problems.push({ pointer: `/${key}`, message, replacesSchema: true });
  return problems;
}

/** Why `name` names no form of schemas/forms (a space, capitals, a misspelling), with the forms there are; undefined when it does. */
function formNameProblem(name: string, forms: string[]): string | undefined {
  if (forms.includes(name)) return undefined;
  const listed = `The forms of this portal (schemas/forms): ${choices(forms)}.`;
  const trimmed = name.trim();
  if (trimmed !== name && trimmed !== '') {
    const spaces = name.startsWith(trimmed) ? 'a space at its end' : name.endsWith(trimmed) ? 'a space at its start' : 'spaces around it';
    return `"${name}" has ${spaces}: write "${trimmed}"${forms.includes(trimmed) ? '' : ' (and check its spelling)'}. ${listed}`;
  }
  const lower = trimmed.toLowerCase();
  if (lower !== trimmed && forms.includes(lower)) return `"${name}": a form's name is written in lower case: write "${lower}". ${listed}`;
  const meant = nearestName(trimmed, forms);
  return (
    `"${name}" is not a form of this portal; schemas/forms has ${choices(forms)}.${meant ? ` Did you mean "${meant}"?` : ''} ` +
    `Check the spelling, or add schemas/forms/${name}.schema.json and ${name}.ui.json (docs/forms-as-data.md).`
  );
}

/** What a language and a country code look like, and where the portal keeps them. */
const LANGUAGE_CODES = { shape: /^[a-z]{2,3}$/, what: 'language', rule: 'two lower-case letters of ISO 639-1', home: 'schemas/i18n', add: (code: string, what: string) => `Add schemas/i18n/${code}.json for ${what}` };
const COUNTRY_CODES = { shape: /^[a-z]{2}$/, what: 'country', rule: 'two lower-case letters of ISO 3166', home: 'schemas/countries.json', add: () => 'Add it there (with its postal-code pattern)' };

/** Why a language or country code names none of the portal's (capitals, spaces, unknown), with the ones it has; undefined when it names one. */
function codeProblem(code: string, have: string[], kind: typeof LANGUAGE_CODES | typeof COUNTRY_CODES, what: string): string | undefined {
  if (have.includes(code)) return undefined;
  const written = code.trim().toLowerCase();
  const listed = `${kind.home} has ${choices(have)}`;
  if (written !== code && kind.shape.test(written)) {
    const how = code.trim() === code ? 'in lower case' : 'without spaces, in lower case';
    if (have.includes(written)) return `"${code}": a ${kind.what} code is written ${how}: write "${written}". ${listed}.`;
    return `"${code}": a ${kind.what} code is written ${how} ("${written}"), and "${written}" is not a ${kind.what} of this portal either; ${listed}. ${kind.add(written, what)}, or check the spelling.`;
  }
  if (!kind.shape.test(code)) return `"${code}" is not a ${kind.what} code: write the ${kind.rule}; ${listed}.`;
  return `"${code}" is not a ${kind.what} of this portal; ${listed}. ${kind.add(code, what)}, or check the spelling.`;
}

/** Where a webhook may not post (core/delivery-url.ts), once the schema has accepted its shape. */
function webhookProblem(brand: Record<string, unknown>): string | undefined {
  const webhook = isRecord(brand.serviceDesk) && isRecord(brand.serviceDesk.webhook) ? brand.serviceDesk.webhook : undefined;
  if (typeof webhook?.url !== 'string') return undefined;
  return deliveryUrlProblem(webhook.url, webhook.allowPrivateNetwork === true);
}

/** The validate function, or why the schema itself is broken. */
function compileBrandSchema(schema: unknown): ValidateFunction | string {
  // verbose: errors carry their schema and data, which the plain sentences quote.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  // What editors read (VS Code's wording, snippets); ajv only has to accept them.
  ajv.addVocabulary(['errorMessage', 'patternErrorMessage', 'defaultSnippets', 'markdownDescription', 'deprecationMessage']);
  addFormats(ajv);
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `$schema` is what gives editors completion and inline errors, so it must reach the real schema. */
function schemaRefProblems(brand: Record<string, unknown>, file: string, { files, schemaFile }: BrandCheckOptions): string[] {
  const expected = relativePath(dirnameOf(file), schemaFile, files.root);
  const ref = brand.$schema;
  if (ref === undefined) {
    return [`"$schema" is missing. Add "$schema": "${expected}" as the first line inside { so editors can help you fill in this file.`];
  }
  if (typeof ref !== 'string' || resolvePath(dirnameOf(file), ref, files.root) !== schemaFile) {
    return [`"$schema" must be "${expected}" (it is ${JSON.stringify(ref)}); that is how editors find the rules for this file.`];
  }
  return [];
}

function assetProblem(asset: unknown, file: string, files: ProjectFiles, key: 'logo' | 'favicon'): string | undefined {
  if (typeof asset !== 'string') return undefined;
  const path = resolvePath(dirnameOf(file), asset, files.root);
  const bytes = files.bytes(path);
  if (bytes === undefined) return `the ${key} file ${path} does not exist. Put the file there, or correct the name (capitals count).`;
  return assetFileProblem(bytes, path, key);
}
