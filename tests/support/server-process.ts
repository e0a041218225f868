import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SPEC_DATA_ENV } from './data-folders';
import { makeWebRoot } from './web-root';

const ROOT = join(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  log(): string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, as in a crash. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** tsx by its path: the server may start in a folder of the test's own (one holding a .env). */
export const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * The real intake server (src/server/server.ts) as its own process on `port`, started in `cwd` (the
 * project's folder unless given); a stand-in for dist/web and the spec's brands unless `env` names others.
 */
export async function spawnServer(port: number, env: Record<string, string>, { cwd = ROOT }: { cwd?: string } = {}): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/server/server.ts')], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MIN_FREE_DISK_MB: '0',
      WEB_ROOT: makeWebRoot(mkdtempSync(join(tmpdir(), 'web-root-'))),
      ...SPEC_DATA_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    log: () => output.slice(-4000),
    output: () => output,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
