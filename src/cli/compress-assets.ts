/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the
 * build (dist/web/assets, and the studio's pages, project.json and assets), at the highest levels: compressed once at build,
 * the server only picks the copy the browser accepts (@fastify/static
 * preCompressed). Run by `npm run build` after the client build.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|svg|json|txt|map|html)$/;

export async function compressAssets(dir: string): Promise<number> {
  let written = 0;
  for (const name of await readdir(dir)) {
    if (!TEXT.test(name)) continue;
    const body = await readFile(join(dir, name));
    const copies: [string, Buffer][] = [
      ['br', brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })],
      ['gz', gzipSync(body, { level: 9 })],
    ];
    for (const [extension, copy] of copies) {
      // A copy no smaller than the file is not worth a request's negotiation.
      if (copy.length >= body.length) continue;
      await writeFile(join(dir, `${name}.${extension}`), copy);
      written += 1;
    }
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const webRoot = resolve(process.env.WEB_ROOT?.trim() || 'dist/web');
  const dirs = [join(webRoot, 'assets'), join(webRoot, 'studio'), join(webRoot, 'studio', 'assets')];
  Promise.all(dirs.map(compressAssets)).then(
    (counts) => console.log(`compressed ${counts[0]} asset copies in ${dirs[0]}, ${counts[1] + counts[2]} of the studio's in ${dirs[1]}`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
