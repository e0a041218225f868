import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSpecData } from '../support/data-folders';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fixturesDir = join(repoRoot, 'tests/fixtures/brands');

/** What validate reads, the spec's brands, forms, languages and countries and the brand schema, copied to a temp folder that a test may break. */
export function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'validate-'));
  installSpecData(dir);
  return dir;
}

export function removeProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function editJson(root: string, file: string, edit: (data: any) => void): void {
  const path = join(root, file);
  const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
  edit(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
}
