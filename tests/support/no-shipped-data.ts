/**
 * Every vitest config's setup file (and, as a Vite plugin, its import
 * guard): a test that reads the shipped data (brands/, and schemas/ but for
 * the portal's own rule files beside the data: brand.schema.json and the
 * editors' schemas of forms, uiSchemas and languages) fails, naming the file. Tests take brands from
 * tests/fixtures/brands/ and forms, languages and countries from
 * tests/fixtures/schemas/ (support/data-folders.ts), so data added, changed or
 * removed by a brand owner never turns `npm test` red. What a test spawns is
 * not watched here: the helpers that start servers, builds and commands give
 * them BRANDS_DIR and SCHEMAS_DIR (or a project copy) themselves. The
 * shipped-data checks read the shipped data in their global setup
 * (tests/e2e/support/shipped-build.ts), where this guard is not armed.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename, dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { RULE_FILES, SHIPPED_BRANDS_DIR, SHIPPED_SCHEMAS_DIR } from './data-folders.ts';

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir + sep);
/** schemas/<name>.schema.json: rules of the product (what a brand, form or language file may say), not data a brand owner edits. */
const isRuleFile = (path: string): boolean => dirname(path) === SHIPPED_SCHEMAS_DIR && (RULE_FILES as readonly string[]).includes(basename(path));
const isShippedData = (path: string): boolean => !isRuleFile(path) && (inside(path, SHIPPED_BRANDS_DIR) || inside(path, SHIPPED_SCHEMAS_DIR));

const refusal = (path: string) =>
  new Error(
    `a test read ${path}, shipped data: tests take brands from tests/fixtures/brands/ and forms, languages and countries from ` +
      'tests/fixtures/schemas/ (tests/support/data-folders.ts), so that changing the shipped data never turns npm test red',
  );

/** Throws when `path` (a string or file: URL, relative to the working directory) lies in brands/ or schemas/ (the rule files apart). */
export function refuseShippedData(path: unknown): void {
  const text = path instanceof URL ? (path.protocol === 'file:' ? fileURLToPath(path) : undefined) : typeof path === 'string' ? path : undefined;
  if (text !== undefined && isShippedData(resolve(text))) throw refusal(resolve(text));
}

/** The fs calls that read or copy by path; each first checks its path. */
const SYNC_AND_CALLBACK = ['readFileSync', 'readFile', 'readdirSync', 'readdir', 'opendirSync', 'opendir', 'openSync', 'open', 'createReadStream', 'cpSync', 'cp', 'copyFileSync', 'copyFile'] as const;
const PROMISES = ['readFile', 'readdir', 'opendir', 'open', 'cp', 'copyFile'] as const;

/** Wraps target's functions `names` so that each first checks its path; `refuse` says how a refusal reaches the caller. */
function guard<T extends object>(target: T, names: readonly string[], refuse: (error: unknown) => unknown): void {
  const functions = target as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const original = functions[name];
    functions[name] = function (this: unknown, ...args: unknown[]) {
      try {
        refuseShippedData(args[0]);
      } catch (error) {
        return refuse(error);
      }
      return original.apply(this, args);
    };
  }
}

/** Installs the guard in this process, once (setup files run before every test file). */
export function guardShippedData(): void {
  const marked = globalThis as { shippedDataGuarded?: boolean };
  if (marked.shippedDataGuarded) return;
  marked.shippedDataGuarded = true;
  guard(fs, SYNC_AND_CALLBACK, (error) => {
    throw error;
  });
  guard(fs.promises, PROMISES, (error) => Promise.reject(error));
  // `import { readFileSync } from 'node:fs'` binds to the ES module's exports: bring them up to date.
  syncBuiltinESMExports();
}

/** The import side, for the configs' plugins: `import x from '…/schemas/i18n/nl.json'` and globs of brands/ fail. */
export function noShippedDataImports(): Plugin {
  return {
    name: 'tests:no-shipped-data',
    enforce: 'pre',
    load(id) {
      refuseShippedData(id.split('?')[0]);
      return undefined;
    },
  };
}
