/**
 * Builds the portal from the spec's brands and data (tests/fixtures/brands/spec,
 * tests/fixtures/schemas/spec) before the browser suites, into dist/spec-web,
 * when that build is missing or older than any source it is made from, so
 * `npm run test:e2e` always tests the current code without rebuilding on every run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildStaleness, buildStamp } from '../../../src/cli/build-freshness';
import type { PortalBuild } from '../../../vite.config';
import { ROOT, SPEC_BUILD } from './paths';

/** npm run build with BRANDS_DIR, SCHEMAS_DIR and WEB_ROOT, when the build in webRoot is missing or stale (E2E_SKIP_BUILD=1: only when missing). */
export function buildIfStale({ brandsDir, schemasDir, webRoot }: PortalBuild = SPEC_BUILD): void {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(buildStamp(webRoot))) return;
  const stale = buildStaleness(ROOT, webRoot, { brandsDir, schemasDir });
  if (!stale) return;
  console.log(`[e2e] ${stale}: building ${relative(ROOT, webRoot)} from ${relative(ROOT, brandsDir)} and ${relative(ROOT, schemasDir)} (npm run build)…`);
  const env = { ...process.env, BRANDS_DIR: brandsDir, SCHEMAS_DIR: schemasDir, WEB_ROOT: webRoot };
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error('npm run build failed: the browser suites need a built portal');
}

/**
 * A private copy of a build for this run: others building in the same tree
 * (emptyOutDir, new asset hashes) would otherwise pull the files from under
 * a running server. The servers get it as WEB_ROOT.
 */
export function snapshotWebRoot(webRoot = SPEC_BUILD.webRoot): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  cpSync(webRoot, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export default function setup(): () => void {
  buildIfStale();
  const snapshot = snapshotWebRoot();
  process.env.E2E_WEB_ROOT = snapshot.dir;
  return () => snapshot.remove();
}
