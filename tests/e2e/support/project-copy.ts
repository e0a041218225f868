import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installSpecData } from '../../support/data-folders';
import { ROOT } from './paths';

/** What a checkout holds (minus dist/ and data/, and with the spec's brands and data); node_modules is linked, as after npm ci. */
const PROJECT_PARTS = ['src', 'index.html', 'vite.config.ts', 'vite.studio.config.ts', 'package.json', 'tsconfig.json'];

/** A private copy of the project, with the spec's brands, forms, languages and countries, that a test may change as a brand author would. */
export function copyWholeProject(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-project-'));
  for (const part of PROJECT_PARTS) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  installSpecData(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Running {
  child: ChildProcess;
  output(): string;
  /** Ends the command and everything it started (npm → tsx → node). */
  stop(): Promise<void>;
}

/** Starts `npm <args>` in dir as its own process group, collecting what it prints; the copy's own brands/ and schemas/ unless `env` says otherwise. */
export function runNpm(dir: string, args: string[], env: Record<string, string> = {}): Running {
  let output = '';
  const { BRANDS_DIR: _brands, SCHEMAS_DIR: _schemas, ...inherited } = process.env;
  const child = spawn('npm', args, { cwd: dir, env: { ...inherited, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}

/** Resolves with the exit status once the command ends. */
export function exitOf(running: Running): Promise<number | null> {
  const { child } = running;
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Waits until url answers (any status), or the command ends, or the time is up. */
export async function waitForUrl(url: string, running: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`the command ended (${running.child.exitCode}) before ${url} answered:\n${running.output().slice(-3000)}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${running.output().slice(-3000)}`);
}
