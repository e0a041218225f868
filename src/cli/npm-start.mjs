// `npm start` on plain Node. In a source checkout with the dev tools (tsx), it
// first brings the build up to date (prepare-start.ts); a production install
// (npm ci --omit=dev) has only the build, and runs it as it is.
// package.json starts this file with `exec`, so npm's own process signals it
// directly (through a shell left in between, a SIGTERM to npm's pid left the
// server running); the server then runs in this very process.
import './supported-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const prepare = `${root}src/cli/prepare-start.ts`;

/**
 * Runs the build step as a process group of its own and passes SIGTERM and
 * SIGINT on to the whole group (npm, vite…): stopped during a build, nothing
 * is left running. Resolves to its exit code.
 */
function prepareBuild() {
  const child = spawn(tsx, [prepare], { cwd: root, stdio: 'inherit', detached: true });
  const forward = (signal) => process.kill(-child.pid, signal);
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, forward);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      for (const s of ['SIGTERM', 'SIGINT']) process.off(s, forward);
      resolve(signal ? 1 : (code ?? 1));
    }),
  );
}

if (existsSync(tsx) && existsSync(prepare)) {
  const code = await prepareBuild();
  if (code !== 0) process.exit(code);
}
const start = `${root}dist/server/start.js`;
if (!existsSync(start)) {
  console.error('dist/server/start.js is missing: build the portal first (npm ci && npm run build), then npm start.');
  process.exit(1);
}
await import(new URL('../../dist/server/start.js', import.meta.url).href);
