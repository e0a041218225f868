/**
 * Builds the portal once before the browser suites when the build is missing
 * or older than any source it is made from, so `npm run test:e2e` always
 * tests the current code without rebuilding on every run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStaleness } from '../../../src/cli/build-freshness';
import { BUILD_STAMP, ROOT, WEB_ROOT } from './paths';

export function buildIfStale(): void {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(BUILD_STAMP)) return;
  const stale = buildStaleness(ROOT, WEB_ROOT);
  if (!stale) return;
  console.log(`[e2e] ${stale}: building the portal (npm run build)…`);
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed: the browser suites need a built portal');
}

/**
 * A private copy of dist/web for this run: others building in the same tree
 * (emptyOutDir, new asset hashes) would otherwise pull the files from under
 * a running server. The servers get it as WEB_ROOT.
 */
export function snapshotWebRoot(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  cpSync(WEB_ROOT, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export default function setup(): () => void {
  buildIfStale();
  const snapshot = snapshotWebRoot();
  process.env.E2E_WEB_ROOT = snapshot.dir;
  return () => snapshot.remove();
}
