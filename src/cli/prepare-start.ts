/**
 * Run by `npm start` in a source checkout with the dev tools installed (see
 * npm-start.mjs): refuses brands and data that do not validate, then builds the portal
 * when its build is missing or older than its sources, or only the compiled
 * server when just the server changed. Works right after `npm ci`.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type ServerConfig } from '../server/config';
import { ConfigError } from '../server/config-error';
import { loadEnvFile } from '../server/env-file';
import { buildStaleness, serverBuildStaleness } from './build-freshness';
import { brandsOrRefuse } from './start-checks';

const root = fileURLToPath(new URL('../../', import.meta.url));

function run(script: string, why: string): void {
  console.error(`${why}: running npm run ${script}`);
  const build = spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

let config: ServerConfig | undefined;
try {
  loadEnvFile();
  config = loadConfig();
} catch (error) {
  // The compiled start reports configuration errors; building changes nothing about them.
  if (!(error instanceof ConfigError)) throw error;
}
const folders = { brandsDir: config?.brandsDir ?? join(root, 'brands'), schemasDir: config?.schemasDir ?? join(root, 'schemas') };
brandsOrRefuse(root, folders);
// npm run build writes dist/web; a WEB_ROOT elsewhere is a deployed build, only checked for its pages.
const stale = config && resolve(config.webRoot) === join(root, 'dist', 'web') ? buildStaleness(root, config.webRoot, folders) : undefined;
if (stale) run('build', stale);
else {
  const serverStale = serverBuildStaleness(root);
  if (serverStale) run('build:server', serverStale);
}
