import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What the hand-over adds to the studio's JavaScript, gzipped: jsdiff, SHA-1, fflate and its own code.
const BUDGET_GZIP_BYTES = 20_000;

describe('src/studio/handover bundles for the browser', () => {
  it('with no node builtins, nothing of server or cli, and within its size budget', async () => {
    const result = await build({
      entryPoints: ['src/studio/handover/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /^node:|\/(server|cli)\//.test(input))).toEqual([]);
    expect(inputs).toEqual(expect.arrayContaining([expect.stringMatching(/node_modules\/diff\//), expect.stringMatching(/node_modules\/@noble\/hashes\//)]));
    const gzip = gzipSync(result.outputFiles[0].contents).length;
    console.info(`src/studio/handover: ${result.outputFiles[0].contents.length} bytes minified, ${gzip} bytes gzip`);
    expect(gzip).toBeLessThan(BUDGET_GZIP_BYTES);
  });
});
