/**
 * The guard that keeps tests off the shipped data (support/no-shipped-data.ts)
 * is armed in this suite, for every way a test reads a file, and lets the
 * spec's brands and data (tests/fixtures/) and the brand schema through.
 */
import fs, { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRAND_SCHEMA_FILE, SHIPPED_BRANDS_DIR, SHIPPED_SCHEMAS_DIR, SPEC_BRANDS_DIR, SPEC_SCHEMAS_DIR } from './support/data-folders';
import { noShippedDataImports } from './support/no-shipped-data';

const REFUSED = /a test read .*, shipped data: tests take brands from tests\/fixtures\/brands\/ and forms, languages and countries from tests\/fixtures\/schemas\//;
const shipped = join(SHIPPED_BRANDS_DIR, 'ilve.json');
const shippedForm = join(SHIPPED_SCHEMAS_DIR, 'forms/simple.schema.json');

describe('a test that reads the shipped data fails', () => {
  it.each([
    ['readFileSync', () => readFileSync(shipped, 'utf8')],
    ['readdirSync of the folder', () => readdirSync(SHIPPED_BRANDS_DIR)],
    ['a path relative to the working directory', () => fs.readFileSync(relative(process.cwd(), shipped))],
    ['a file: URL', () => readFileSync(new URL(`file://${shipped}`))],
    ['an asset', () => fs.readFileSync(join(SHIPPED_BRANDS_DIR, 'assets/ilve-logo.svg'))],
    ['a copy of the folder', () => fs.cpSync(SHIPPED_BRANDS_DIR, '/nonexistent/brands', { recursive: true })],
    ['a form', () => readFileSync(shippedForm, 'utf8')],
    ['a language file', () => readFileSync(join(SHIPPED_SCHEMAS_DIR, 'i18n/nl.json'), 'utf8')],
    ['the countries', () => readFileSync(join(SHIPPED_SCHEMAS_DIR, 'countries.json'), 'utf8')],
    ['the list of forms', () => readdirSync(join(SHIPPED_SCHEMAS_DIR, 'forms'))],
    ['a copy of schemas/', () => fs.cpSync(SHIPPED_SCHEMAS_DIR, '/nonexistent/schemas', { recursive: true })],
  ])('%s', (_how, read) => {
    expect(read).toThrow(REFUSED);
  });

  it('with fs/promises', async () => {
    await expect(readFile(shipped, 'utf8')).rejects.toThrow(REFUSED);
    await expect(readFile(shippedForm, 'utf8')).rejects.toThrow(REFUSED);
  });

  it('by import (the configs’ plugin refuses to load it)', () => {
    const load = noShippedDataImports().load as (id: string) => unknown;
    expect(() => load(`${shipped}?import`)).toThrow(REFUSED);
    expect(() => load(join(SHIPPED_SCHEMAS_DIR, 'i18n/fr.json'))).toThrow(REFUSED);
    expect(load(join(SPEC_BRANDS_DIR, 'ilve.json'))).toBeUndefined();
    expect(load(join(SPEC_SCHEMAS_DIR, 'i18n/fr.json'))).toBeUndefined();
  });
});

it('the brand schema, the portal’s rule for brand files, may be read', () => {
  expect(JSON.parse(readFileSync(BRAND_SCHEMA_FILE, 'utf8')).$schema).toMatch(/json-schema/);
});

it('the spec’s brands and data read as ever', () => {
  expect(readdirSync(SPEC_BRANDS_DIR).filter((f) => f.endsWith('.json')).sort()).toEqual(
    ['airodesign.json', 'fratelli.json', 'hanant.json', 'ilve.json', 'kuppersbusch.json', 'teka.json'],
  );
  expect(JSON.parse(readFileSync(join(SPEC_BRANDS_DIR, 'teka.json'), 'utf8')).name).toBe('Teka');
  expect(readdirSync(join(SPEC_SCHEMAS_DIR, 'forms')).sort()).toEqual(['extended.schema.json', 'extended.ui.json', 'fields.json', 'simple.schema.json', 'simple.ui.json']);
  expect(readdirSync(join(SPEC_SCHEMAS_DIR, 'i18n')).sort()).toEqual(['fr.json', 'nl.json']);
  expect(Object.keys(JSON.parse(readFileSync(join(SPEC_SCHEMAS_DIR, 'countries.json'), 'utf8')).countries)).toEqual(['be', 'fr', 'nl', 'lu']);
});
