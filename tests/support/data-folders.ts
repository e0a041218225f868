import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The brands the spec describes (today's six brand files and their assets,
 * copied): what every test that expects a brand's values reads, so adding,
 * changing or removing a shipped brand (brands/) never turns a test red.
 */
export const SPEC_BRANDS_DIR = join(ROOT, 'tests/fixtures/brands/spec');

/**
 * The forms, languages and countries the spec describes (forms/, i18n/,
 * countries.json, copied from schemas/): what every test that expects what a
 * form asks, checks or says reads, as SCHEMAS_DIR, so a form, field, text,
 * language or country changed as data (schemas/) never turns a test red.
 */
export const SPEC_SCHEMAS_DIR = join(ROOT, 'tests/fixtures/schemas/spec');

/** The shipped brand files: only the shipped-data checks look at them (tests/e2e/shipped-brands.spec.ts). */
export const SHIPPED_BRANDS_DIR = join(ROOT, 'brands');

/** The shipped forms, languages and countries: only the shipped-data checks look at them. */
export const SHIPPED_SCHEMAS_DIR = join(ROOT, 'schemas');

/** The rules of a brand file: the portal's own, not data a brand owner changes; tests may read it where it is. */
export const BRAND_SCHEMA_FILE = join(SHIPPED_SCHEMAS_DIR, 'brand.schema.json');

/** The portal's rules beside the data in schemas/ (what a brand, form, uiSchema or language file may say): product, not data. */
export const RULE_FILES = ['brand.schema.json', 'form.schema.json', 'form-ui.schema.json', 'language.schema.json'] as const;

/** The spec's data as SCHEMAS_DIR and BRANDS_DIR say it to a server, a build or a command. */
export const SPEC_DATA_ENV = { BRANDS_DIR: SPEC_BRANDS_DIR, SCHEMAS_DIR: SPEC_SCHEMAS_DIR } as const;

const FIXTURE_SCHEMA_REF = '"$schema": "../../../../schemas/brand.schema.json"';

/** Makes brands/ of a copy of the project hold the spec's brands, as brand files of that project. */
export function installSpecBrands(projectDir: string): void {
  const brandsDir = join(projectDir, 'brands');
  mkdirSync(brandsDir, { recursive: true });
  cpSync(join(SPEC_BRANDS_DIR, 'assets'), join(brandsDir, 'assets'), { recursive: true });
  for (const file of readdirSync(SPEC_BRANDS_DIR).filter((f) => f.endsWith('.json'))) {
    const text = readFileSync(join(SPEC_BRANDS_DIR, file), 'utf8');
    if (!text.includes(FIXTURE_SCHEMA_REF)) throw new Error(`${file} in ${SPEC_BRANDS_DIR} lacks ${FIXTURE_SCHEMA_REF}`);
    // The text as it is, but for where the brand schema lies from brands/.
    writeFileSync(join(brandsDir, file), text.replace(FIXTURE_SCHEMA_REF, '"$schema": "../schemas/brand.schema.json"'));
  }
}

/** Makes schemas/ of a copy of the project hold the spec's forms, languages and countries, beside the portal's rule files (brand.schema.json, the editors' schemas). */
export function installSpecSchemas(projectDir: string): void {
  const schemasDir = join(projectDir, 'schemas');
  mkdirSync(schemasDir, { recursive: true });
  for (const part of ['forms', 'i18n', 'countries.json']) cpSync(join(SPEC_SCHEMAS_DIR, part), join(schemasDir, part), { recursive: true });
  for (const rules of RULE_FILES) cpSync(join(SHIPPED_SCHEMAS_DIR, rules), join(schemasDir, rules));
}

/** A copy of the project's data as the spec has it: brands/ and schemas/ of projectDir. */
export function installSpecData(projectDir: string): void {
  installSpecBrands(projectDir);
  installSpecSchemas(projectDir);
}
