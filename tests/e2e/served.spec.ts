/**
 * The portal as served: compressed assets by content negotiation, cache
 * headers, a 404 page without form code, a meta description per brand and
 * language, and HTML the Nu Html Checker passes without errors (brand pages,
 * the 404 page, and the pages a post without scripts answers with).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRANDS, LOCALES, photoFiles, uniqueEmail, validValues } from './support/fixtures';
import { refusedPages } from './support/no-script-posts';
import { browserSuite } from './support/suite';

const suite = browserSuite();
const VNU_JAR = join(createRequire(import.meta.url).resolve('vnu-jar/package.json'), '..', 'build', 'dist', 'vnu.jar');

async function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${suite.portal.baseUrl}${path}`, { headers, redirect: 'manual' });
}

async function assetsOf(path: string): Promise<string[]> {
  const html = await (await get(path)).text();
  // Linked, or named for the loader to fetch once the page has painted (src/web/main.tsx).
  const named = /<meta name="portal:modules" content="([^"]*)"/.exec(html)?.[1].split(' ') ?? [];
  return [...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]), ...named];
}

/** A form as a browser without scripts posts it from the portal's page (text fields, and photos when given). */
async function postForm(path: string, fields: Record<string, string>, withPhotos: boolean): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(`root_${name}`, value);
  if (withPhotos) {
    const [one, two] = await photoFiles();
    body.append('root_upload_1', new Blob([new Uint8Array(one.buffer)], { type: one.mimeType }), one.name);
    body.append('root_upload_2', new Blob([new Uint8Array(two.buffer)], { type: two.mimeType }), two.name);
  }
  const headers = { origin: suite.portal.baseUrl, 'sec-fetch-site': 'same-origin' };
  return fetch(`${suite.portal.baseUrl}${path}`, { method: 'POST', body, redirect: 'manual', headers });
}

describe('assets on the wire', () => {
  it('are sent brotli or gzip by Accept-Encoding, hashed ones cached for good; HTML revalidated', async () => {
    const assets = await assetsOf('/kuppersbusch/nl/be');
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const asset of assets) {
      const plain = await get(asset);
      const size = (await plain.arrayBuffer()).byteLength;
      expect(plain.headers.get('cache-control'), asset).toContain('immutable');
      for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip']]) {
        const res = await get(asset, { 'accept-encoding': accept });
        // fetch decodes the body: the bytes sent are the declared length.
        const sent = Number(res.headers.get('content-length'));
        await res.arrayBuffer();
        expect(res.headers.get('content-encoding'), `${asset} ${accept}`).toBe(encoding);
        expect(res.headers.get('vary') ?? '', asset).toMatch(/accept-encoding/i);
        if (size > 2000) expect(sent, asset).toBeLessThan(size / 2);
      }
    }
    const page = await get('/kuppersbusch/nl/be', { 'accept-encoding': 'br, gzip' });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('the 404 page loads no form code', async () => {
    const res = await get('/geen/pagina');
    expect(res.status).toBe(404);
    const brandAssets = new Set(await assetsOf('/kuppersbusch/nl/be'));
    const notFoundAssets = await assetsOf('/geen/pagina');
    const formChunks = [...brandAssets].filter((a) => /brand-page|validator/.test(a));
    expect(formChunks.length).toBeGreaterThan(0);
    for (const chunk of formChunks) expect(notFoundAssets).not.toContain(chunk);
  });

  it('every brand page has a meta description in its language and a prioritised logo', async () => {
    for (const brand of BRANDS) {
      for (const locale of LOCALES) {
        const html = await (await get(`/${brand.id}/${locale}/be`)).text();
        const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1] ?? '';
        expect(description, `${brand.id} ${locale}`).toContain(brand.name);
        expect(description).toMatch(locale === 'nl' ? /Vraag een reparatie aan/ : /Demandez la réparation/);
        expect(html).toMatch(/<img class="site-header__logo"[^>]*fetchPriority="high"/i);
      }
    }
  });
});

describe('Nu Html Checker', () => {
  it('finds no errors in the brand pages, the 404 page and the pages of a post without scripts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-vnu-'));
    try {
      const pages: [string, string][] = [];
      for (const brand of BRANDS) {
        for (const locale of LOCALES) pages.push([`${brand.id}-${locale}`, await (await get(`/${brand.id}/${locale}/nl`)).text()]);
      }
      pages.push(['404', await (await get('/geen/pagina')).text()]);
      const invalid = await postForm('/kuppersbusch/nl/be', { last_name: 'Jansen', postal_code: '12', country: 'be' }, false);
      expect(invalid.status).toBe(400);
      pages.push(['errors', await invalid.text()]);
      const brand = BRANDS.find((b) => b.id === 'ilve')!;
      const email = uniqueEmail('vnu');
      const sent = await postForm('/ilve/nl/be', { ...validValues(brand, email), country: 'be' }, true);
      expect(sent.status).toBe(303);
      const cookie = (sent.headers.get('set-cookie') ?? '').split(';')[0];
      const confirmation = await (await get('/ilve/nl/be', { cookie })).text();
      expect(confirmation).toContain(email);
      pages.push(['confirmation', confirmation]);
      for (const refused of await refusedPages(suite.portal.baseUrl)) pages.push([`${refused.kind}-${refused.locale}`, refused.html]);

      const files = pages.map(([name, html]) => {
        const file = join(dir, `${name}.html`);
        writeFileSync(file, html);
        return file;
      });
      let report = '';
      try {
        execFileSync('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'text', ...files], { stdio: 'pipe' });
      } catch (error) {
        report = String((error as { stderr?: Buffer }).stderr ?? error);
      }
      expect(report).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
