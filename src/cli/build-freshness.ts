import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** What the built portal is made from besides its data (brand files, forms, languages, countries); a change to any of them needs a new build. */
export const BUILD_SOURCES = ['src/web', 'src/core', 'src/studio', 'src/cli/vite', 'schemas/brand.schema.json', 'index.html', 'vite.config.ts', 'vite.studio.config.ts', 'package.json'];

/** Written last by `npm run build` (the prerender step): its age is the build's age. */
export const buildStamp = (webRoot: string): string => join(webRoot, 'pages', '404.html');

/** The newest file under path (itself if a file), or undefined when there is none. */
function newestFile(path: string): { path: string; mtimeMs: number } | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isDirectory()) return { path, mtimeMs: st.mtimeMs };
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(path)) {
    const found = newestFile(join(path, entry));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/** Why `stamp` is missing or older than the newest of `sources` under root, in words for the terminal. */
function staleness(root: string, stamp: string, sources: readonly string[], build: string, missing: string): string | undefined {
  if (!existsSync(stamp)) return missing;
  const built = statSync(stamp).mtimeMs;
  for (const source of sources) {
    const newest = newestFile(resolve(root, source));
    if (newest && newest.mtimeMs > built) return `${relative(root, newest.path)} changed after the last ${build}`;
  }
  return undefined;
}

/**
 * Why the build in webRoot does not show the current sources, the brand files
 * in brandsDir (brands/, or BRANDS_DIR) and the data in schemasDir (schemas/,
 * or SCHEMAS_DIR), in words for the terminal ("brands/acme.json changed after
 * the last build"), or undefined when it is current.
 */
export function buildStaleness(root: string, webRoot: string, { brandsDir, schemasDir }: { brandsDir: string; schemasDir: string }): string | undefined {
  return staleness(root, buildStamp(webRoot), [...BUILD_SOURCES, brandsDir, schemasDir], 'build', `there is no complete build in ${webRoot}`);
}

/** What the compiled server (dist/server, `npm run build:server`) is made from (it reads the data when it starts). */
export const SERVER_BUILD_SOURCES = ['src/server', 'src/core', 'src/cli', 'package.json'];

/** Why dist/server does not hold the current server, or undefined when it does. */
export function serverBuildStaleness(root: string): string | undefined {
  return staleness(root, join(root, 'dist', 'server', 'start.js'), SERVER_BUILD_SOURCES, 'server build', 'there is no compiled server in dist/server');
}
