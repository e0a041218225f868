/**
 * `npm start`: refuses brands that do not pass npm run validate (with its
 * messages), builds the portal when the build is missing or older than its
 * sources, then serves it with the intake server. Works right after `npm ci`
 * on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../server/server';
import { buildStaleness } from './build-freshness';
import { unbuiltPages } from './built-pages';
import { BrandCheckError, checkedBrands } from './checked-brands';

const root = fileURLToPath(new URL('../../', import.meta.url));

function refuse(lines: string[]): never {
  for (const line of lines) console.error(line);
  process.exit(1);
}

await main((config) => {
  let brands;
  try {
    brands = checkedBrands(root).brands;
  } catch (error) {
    if (!(error instanceof BrandCheckError)) throw error;
    refuse(['npm start will not serve the portal: npm run validate finds these problems.', '', ...error.lines, '', 'Fix them, then run npm start again.']);
  }
  // npm run build writes dist/web; a WEB_ROOT elsewhere is a deployed build, only checked for its pages.
  const stale = resolve(config.webRoot) === join(root, 'dist', 'web') ? buildStaleness(root, config.webRoot) : undefined;
  if (stale) {
    console.error(`${stale}: running npm run build`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const missing = unbuiltPages(brands, config.webRoot);
  if (missing.length > 0) {
    refuse([`The build in ${config.webRoot} has no page for ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}, though the brand file exists. Run npm run build, then npm start.`]);
  }
});
