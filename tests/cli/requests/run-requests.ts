import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SPEC_DATA_ENV } from '../../support/data-folders';
import { TSX } from '../../support/server-process';

export const ROOT = join(import.meta.dirname, '../../..');

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The test process's environment without the settings a test gives the command itself, on the spec's brands and data. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'PHOTO_URL_SECRET', 'PORTAL_TIME_ZONE']) delete env[name];
  return { ...env, ...SPEC_DATA_ENV };
}

/**
 * Runs `npm run requests -- <args>` as an operator does: the real command
 * in a process of its own, in `cwd` (tsx is found by its path from any
 * folder), with `env` as the only store settings; under `wrap`, when given.
 */
export function requests(
  args: string[],
  { env = {}, cwd = ROOT, wrap = [] }: { env?: Record<string, string>; cwd?: string; wrap?: string[] } = {},
): Promise<CommandRun> {
  // `wrap`: a command the node process is started under (setpriv: an operator without root's powers).
  const [program, ...rest] = [...wrap, process.execPath, '--import', TSX, join(ROOT, 'src/cli/requests.ts'), ...args];
  const child = spawn(program, rest, { cwd, env: { ...baseEnv(), ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The settings that put a command on a test server's store. */
export const storeEnv = ({ dataDir, databaseUrl }: { dataDir: string; databaseUrl: string }) => ({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
