/**
 * Bytes on the wire for a brand page and the app it loads at the customer's
 * first act, as the intake server sends them to a browser that accepts br and
 * gzip: the page, its stylesheet, the logo it preloads and every script (module
 * scripts, modulepreloads, the loader's modules and their static imports).
 * Before the first act only the page, its stylesheet, logo and loader come
 * (Lighthouse's "script sent" shows that part). Counted as received
 * (encoded body), over node:http so nothing decodes them first.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BRANDS } from '../tests/e2e/support/fixtures';
import type { BenchFigure } from './figures';

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

interface Received {
  bytes: number;
  encoding: string;
}

function fetchRaw(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ bytes: Buffer.concat(chunks).length, encoding: String(res.headers['content-encoding'] ?? 'identity') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function wireFigures(
  baseUrl: string,
  webRoot: string,
  initialChunks: (webRoot: string, html: string) => string[],
): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const brand of BRANDS) {
    const path = `/${brand.id}/nl/be`;
    const page = await fetchRaw(`${baseUrl}${path}`);
    const html = readFileSync(join(webRoot, 'pages', brand.id, 'nl', 'be.html'), 'utf8');
    const others = [
      ...initialChunks(webRoot, html),
      ...[...html.matchAll(/<link rel="(?:stylesheet|preload)"[^>]*href="(\/assets\/[^"]+)"/g)].map((m) => m[1]),
    ];
    const parts = await Promise.all([...new Set(others)].map((url) => fetchRaw(`${baseUrl}${url}`)));
    const total = page.bytes + parts.reduce((sum, p) => sum + p.bytes, 0);
    const encodings = [...new Set([page, ...parts].map((p) => p.encoding))].join('/');
    figures.push({
      name: `Bytes on the wire, page and app at the first act, ${path} (br, gzip accepted)`,
      value: kB(total),
      unit: 'kB',
      budgetKey: 'web.wireBeforeUsableKb',
      better: 'lower',
      detail: `${parts.length + 1} responses (${encodings}); HTML ${kB(page.bytes)} kB`,
    });
  }
  return figures;
}
