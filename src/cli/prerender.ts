/**
 * Prerenders every brand page (brand × nl,fr × be,fr,nl,lu) and the 404 page
 * into dist/web/pages/, from the client build's index.html and the SSR build
 * of src/web/entry-server.tsx. The intake server serves these files, so the
 * first paint shows header, form and footer before any JavaScript runs.
 *
 * Run by `npm run build` after `vite build` and `vite build --ssr`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderedPage } from '../web/entry-server';

interface Options {
  webRoot: string;
  ssrEntry: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Vite's build manifest: source module → its chunk and the chunks it imports. */
export type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

/** URLs of a module's chunk and everything it imports statically, for modulepreload. */
export function chunkUrls(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  const entry = manifest[key];
  // The entry chunk is loaded by its own <script>.
  if (!entry || entry.isEntry || seen.has(key)) return [];
  seen.add(key);
  return [`/${entry.file}`, ...(entry.imports ?? []).flatMap((k) => chunkUrls(manifest, k, seen))];
}

/** Fills the client build's index.html with one rendered page. */
export function fillTemplate(template: string, page: RenderedPage, preloads: string[] = []): string {
  const replace = (pattern: RegExp, by: string) => {
    if (!pattern.test(template)) throw new Error(`index.html has no ${pattern}: the prerender cannot place the page`);
    template = template.replace(pattern, () => by);
  };
  replace(/<html lang="[^"]*"/, `<html lang="${page.lang}"`);
  replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`);
  replace(/<meta name="description" content="[^"]*"/, `<meta name="description" content="${escapeHtml(page.description)}"`);
  if (page.favicon) {
    const type = page.favicon.endsWith('.svg') ? ' type="image/svg+xml"' : '';
    replace(/<link rel="icon"[^>]*>/, `<link rel="icon" href="${escapeHtml(page.favicon)}"${type} />`);
  }
  // React puts resource hints (e.g. <link rel="preload" as="image">) before the app's markup;
  // they belong in <head>, and #root must hold exactly what the client hydrates.
  const hints = /^(?:<link\b[^>]*>)+/.exec(page.html)?.[0] ?? '';
  // The app and the form are dynamic imports. They are named here, not fetched: the
  // page's loader (src/web/main.tsx) preloads them once the first frame is painted, so nothing
  // but the stylesheet and the logo competes with what the first paint needs.
  const urls = preloads.filter((url) => !template.includes(`href="${url}"`));
  const modulePreloads = urls.length > 0 ? `<meta name="portal:modules" content="${escapeHtml(urls.join(' '))}" />` : '';
  // The loader itself runs after the parse: it need not go before the stylesheet and the logo either.
  replace(/<script type="module" crossorigin/, '<script type="module" fetchpriority="low" crossorigin');
  replace(/<\/head>/, `${modulePreloads}${hints}</head>`);
  replace(/<div id="root"><\/div>/, `<div id="root">${page.html.slice(hints.length)}</div>`);
  return template;
}

/**
 * The server's CSP is script-src 'self' and style-src 'self': inline scripts,
 * event-handler attributes and style attributes would be blocked in the
 * browser, and the page would differ from what React hydrates.
 */
export function cspProblems(html: string): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) {
    if (!/\bsrc=/.test(m[0])) problems.push(`inline script: ${m[0]}`);
  }
  for (const m of html.matchAll(/<[a-z][^>]*\s(style|on[a-z]+)=("[^"]*"|'[^']*'|[^\s>]+)/gi)) {
    problems.push(`${m[1]} attribute: ${m[0].slice(0, 120)}`);
  }
  if (/<style\b/i.test(html)) problems.push('inline <style> element');
  // A boundary React gave up rendering (it errored): the page would arrive without its content.
  if (html.includes('<!--$!-->')) problems.push('a part of the page failed to render (client rendering fallback)');
  return problems;
}

export async function prerenderAll({ webRoot, ssrEntry }: Options): Promise<string[]> {
  const template = await readFile(join(webRoot, 'index.html'), 'utf8');
  const manifest = JSON.parse(await readFile(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = (await import(pathToFileURL(ssrEntry).href)) as typeof import('../web/entry-server');
  const outDir = join(webRoot, 'pages');
  await rm(outDir, { recursive: true, force: true });

  const jobs = [
    ...entry.brandPaths().map((path) => ({ path, file: `${path.slice(1)}.html`, status: 200 })),
    { path: '/404', file: '404.html', status: 404 },
  ];
  const written: string[] = [];
  const problems: string[] = [];
  for (const { path, file, status } of jobs) {
    const page = await entry.render(path);
    if (page.status !== status) problems.push(`${path}: rendered status ${page.status}, expected ${status}`);
    const seen = new Set<string>();
    const preloads = page.preloadModules.flatMap((module) => {
      // One shared `seen`: chunks two modules import are preloaded once.
      const urls = chunkUrls(manifest, module, seen);
      if (!manifest[module]) problems.push(`${path}: the build has no chunk for ${module}`);
      return urls;
    });
    const html = fillTemplate(template, page, preloads);
    problems.push(...cspProblems(html).map((p) => `${file}: ${p}`));
    const target = join(outDir, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, html);
    written.push(target);
  }
  if (problems.length > 0) throw new Error(`prerender found problems:\n  ${problems.join('\n  ')}`);
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const webRoot = resolve(process.env.WEB_ROOT?.trim() || 'dist/web');
  const ssrEntry = resolve(process.env.SSR_ENTRY ?? join(webRoot, 'ssr', 'entry-server.js'));
  prerenderAll({ webRoot, ssrEntry }).then(
    (files) => console.log(`prerendered ${files.length} pages into ${join(webRoot, 'pages')}`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
