/**
 * `npm run build:server`: compiles the intake server and the commands it runs
 * to plain ES modules in dist/server, so `npm start` runs on Node alone (no
 * tsx) and a production install (`npm ci --omit=dev`) can run the build.
 * Packages stay imports from node_modules; our code and its JSON are bundled.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Entry name in dist/server → source. The writer thread is a worker of its own. */
export const SERVER_ENTRIES = {
  start: 'src/cli/start.ts',
  server: 'src/server/server.ts',
  requests: 'src/cli/requests.ts',
  'sqlite-writer': 'src/server/storage/sqlite/writer-entry.ts',
};

export async function buildServer(outdir = `${root}dist/server`): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildServer();
