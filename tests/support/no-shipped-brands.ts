/**
 * Every vitest config's setup file (and, as a Vite plugin, its import
 * guard): a test that reads the shipped brand files (brands/) fails, naming
 * the file. Tests take brands from tests/fixtures/brands/ (support/brand-folders.ts),
 * so a brand added, changed or removed as data never turns `npm test` red.
 * What a test spawns is not watched here: the helpers that start servers and
 * commands give them BRANDS_DIR (or a project copy) themselves.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { SHIPPED_BRANDS_DIR } from './brand-folders';

const inShippedBrands = (path: string): boolean => path === SHIPPED_BRANDS_DIR || path.startsWith(SHIPPED_BRANDS_DIR + sep);

const refusal = (path: string) =>
  new Error(
    `a test read ${path}, a shipped brand file: tests take brands from tests/fixtures/brands/ (tests/support/brand-folders.ts), ` +
      'so that adding, changing or removing a shipped brand never turns npm test red',
  );

/** Throws when `path` (a string or file: URL, relative to the working directory) lies in brands/. */
export function refuseShippedBrands(path: unknown): void {
  const text = path instanceof URL ? (path.protocol === 'file:' ? fileURLToPath(path) : undefined) : typeof path === 'string' ? path : undefined;
  if (text !== undefined && inShippedBrands(resolve(text))) throw refusal(resolve(text));
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
        refuseShippedBrands(args[0]);
      } catch (error) {
        return refuse(error);
      }
      return original.apply(this, args);
    };
  }
}

/** Installs the guard in this process, once (setup files run before every test file). */
export function guardShippedBrands(): void {
  const marked = globalThis as { shippedBrandsGuarded?: boolean };
  if (marked.shippedBrandsGuarded) return;
  marked.shippedBrandsGuarded = true;
  guard(fs, SYNC_AND_CALLBACK, (error) => {
    throw error;
  });
  guard(fs.promises, PROMISES, (error) => Promise.reject(error));
  // `import { readFileSync } from 'node:fs'` binds to the ES module's exports: bring them up to date.
  syncBuiltinESMExports();
}

/** The import side, for the configs' plugins: `import x from '…/brands/ilve.json'` and globs of brands/ fail. */
export function noShippedBrandImports(): Plugin {
  return {
    name: 'tests:no-shipped-brands',
    enforce: 'pre',
    load(id) {
      refuseShippedBrands(id.split('?')[0]);
      return undefined;
    },
  };
}
