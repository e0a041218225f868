/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the
 * build (dist/web/assets), at the highest levels: compressed once at build,
 * the server only picks the copy the browser accepts (@fastify/static
 * preCompressed). Run by `npm run build` after the client build.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|svg|json|txt|map)$/;

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
  const dir = resolve(process.env.WEB_ROOT?.trim() || 'dist/web', 'assets');
  compressAssets(dir).then(
    (n) => console.log(`compressed ${n} asset copies in ${dir}`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
