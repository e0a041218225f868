/**
 * `npm start`: builds the portal when its build is missing, then serves it
 * with the intake server. Works right after `npm ci` on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../server/server';

await main((config) => {
  if (existsSync(join(config.webRoot, 'index.html'))) return;
  console.error(`${join(config.webRoot, 'index.html')} is missing: running npm run build`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
});
