// Real git in temporary folders, untouched by the machine's own git settings.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };

export function git(cwd: string, args: string[], input?: string | Uint8Array, env: Record<string, string> = {}): string {
  return gitBytes(cwd, args, input, env).toString('utf8');
}

export function gitBytes(cwd: string, args: string[], input?: string | Uint8Array, env: Record<string, string> = {}): Buffer {
  return execFileSync('git', args, { cwd, env: { ...ENV, ...env }, input, maxBuffer: 64 * 1024 * 1024 });
}

/** git, and what it said, without throwing: for the refusals a test expects. */
export function gitTry(cwd: string, args: string[]): { ok: boolean; output: string } {
  try {
    return { ok: true, output: execFileSync('git', args, { cwd, env: ENV, stdio: 'pipe' }).toString('utf8') };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: Buffer; stderr: Buffer };
    return { ok: false, output: `${stdout.toString('utf8')}${stderr.toString('utf8')}` };
  }
}

export function tempFolder(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A work tree with one commit holding `files`, and a committer of its own for git am. */
export function repoWith(dir: string, files: Record<string, string | Uint8Array>): void {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Portal Maintainer']);
  git(dir, ['config', 'user.email', 'maintainer@example.org']);
  for (const [path, content] of Object.entries(files)) writeFile(dir, path, content);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'The project as the studio got it']);
}

export function writeFile(dir: string, path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

export function readBytes(dir: string, path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, path)));
}

/** Every file git tracks at HEAD. */
export function trackedFiles(dir: string): string[] {
  return git(dir, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n').filter(Boolean).sort();
}
