/**
 * The studio runs validate's checks in the browser from the module the CLI uses (issue 47): it must
 * bundle for a browser as it is, with no Node built-in (node:fs, node:path, Buffer's module) in it.
 */
import { builtinModules } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../cli/project-copy';

describe('src/core/validate in a browser', () => {
  it('bundles for the browser with nothing of Node', async () => {
    const result = await build({
      absWorkingDir: repoRoot,
      entryPoints: ['src/core/validate/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    const node = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    expect(imports.filter((path) => node.has(path))).toEqual([]);
    expect(result.outputFiles).toHaveLength(1);
  }, 60_000);
});
