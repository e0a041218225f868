/**
 * The guard that keeps tests off the shipped brand files (support/no-shipped-brands.ts)
 * is armed in this suite, for every way a test reads a file, and lets the
 * spec's brands (tests/fixtures/brands/spec) through.
 */
import fs, { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_BRANDS_DIR, SPEC_BRANDS_DIR } from './support/brand-folders';
import { noShippedBrandImports } from './support/no-shipped-brands';

const REFUSED = /a test read .*brands.*, a shipped brand file: tests take brands from tests\/fixtures\/brands\//;
const shipped = join(SHIPPED_BRANDS_DIR, 'ilve.json');

describe('a test that reads the shipped brands fails', () => {
  it.each([
    ['readFileSync', () => readFileSync(shipped, 'utf8')],
    ['readdirSync of the folder', () => readdirSync(SHIPPED_BRANDS_DIR)],
    ['a path relative to the working directory', () => fs.readFileSync(relative(process.cwd(), shipped))],
    ['a file: URL', () => readFileSync(new URL(`file://${shipped}`))],
    ['an asset', () => fs.readFileSync(join(SHIPPED_BRANDS_DIR, 'assets/ilve-logo.svg'))],
    ['a copy of the folder', () => fs.cpSync(SHIPPED_BRANDS_DIR, '/nonexistent/brands', { recursive: true })],
  ])('%s', (_how, read) => {
    expect(read).toThrow(REFUSED);
  });

  it('with fs/promises', async () => {
    await expect(readFile(shipped, 'utf8')).rejects.toThrow(REFUSED);
  });

  it('by import (the configs’ plugin refuses to load it)', () => {
    const load = noShippedBrandImports().load as (id: string) => unknown;
    expect(() => load(`${shipped}?import`)).toThrow(REFUSED);
    expect(load(join(SPEC_BRANDS_DIR, 'ilve.json'))).toBeUndefined();
  });
});

it('the spec’s brands read as ever', () => {
  expect(readdirSync(SPEC_BRANDS_DIR).filter((f) => f.endsWith('.json')).sort()).toEqual(
    ['airodesign.json', 'fratelli.json', 'hanant.json', 'ilve.json', 'kuppersbusch.json', 'teka.json'],
  );
  expect(JSON.parse(readFileSync(join(SPEC_BRANDS_DIR, 'teka.json'), 'utf8')).name).toBe('Teka');
});
