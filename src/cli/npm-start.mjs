// `npm start` on plain Node. In a source checkout with the dev tools (tsx), it
// first brings the build up to date (prepare-start.ts); a production install
// (npm ci --omit=dev) has only the build, and runs it as it is.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const prepare = `${root}src/cli/prepare-start.ts`;
if (existsSync(tsx) && existsSync(prepare)) {
  const prepared = spawnSync(tsx, [prepare], { cwd: root, stdio: 'inherit' });
  if (prepared.status !== 0) process.exit(prepared.status ?? 1);
}
const start = `${root}dist/server/start.js`;
if (!existsSync(start)) {
  console.error('dist/server/start.js is missing: build the portal first (npm ci && npm run build), then npm start.');
  process.exit(1);
}
await import(new URL('../../dist/server/start.js', import.meta.url).href);
