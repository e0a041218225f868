import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The brands the spec describes (today's six brand files and their assets,
 * copied): what every test that expects a brand's values reads, so adding,
 * changing or removing a shipped brand (brands/) never turns a test red.
 */
export const SPEC_BRANDS_DIR = join(ROOT, 'tests/fixtures/brands/spec');

/** The shipped brand files: only the shipped-brands check looks at them (tests/e2e/shipped-brands.spec.ts). */
export const SHIPPED_BRANDS_DIR = join(ROOT, 'brands');

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
