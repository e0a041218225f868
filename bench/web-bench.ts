/**
 * Web figures of `npm run bench`:
 * - gzip JavaScript of each brand page and of the app it loads at the
 *   customer's first act (the built HTML's module scripts, modulepreloads and
 *   portal:modules, plus their static imports), and
 *   the biggest modules in it (from a sourcemapped build of the same config);
 * - Lighthouse's mobile figures (performance, FCP, LCP, TBT, CLS, unused
 *   script) on one page of each form variant, against the real intake server;
 * - blur-to-error with an 8,000-character description: submit → every error
 *   shown (one whole-form validation), and blur → that field's error shown.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { build, mergeConfig } from 'vite';
import { portalViteConfig } from '../vite.config';
import { buildIfStale, snapshotWebRoot } from '../tests/e2e/support/global-setup';
import { launchChromium } from '../tests/e2e/support/browser';
import { BRANDS } from '../tests/e2e/support/fixtures';
import { SUBMIT, field, openBrandPage } from '../tests/e2e/support/form-page';
import { ROOT, SPEC_BUILD } from '../tests/e2e/support/paths';
import { startPortal, type Portal } from '../tests/e2e/support/portal';
import type { BenchFigure } from './figures';
import { attribute, sizesByGroup, type ModuleSize } from './sourcemap-attribution';
import { photoUploadFigures } from './photo-bench';
import { wireFigures } from './wire-bytes';
import { lighthouseFigures, lighthouseScores } from './lighthouse-bench';

/** tsx (esbuild keepNames) wraps named functions in __name(); functions sent to page.evaluate need it in the page. */
export const KEEP_NAMES_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

/** URL paths of the JavaScript an HTML page loads up front. */
export function pageScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) urls.add(m[1]);
  // Fetched by the page's loader at the customer's first act (src/web/main.tsx): the app that then takes over.
  for (const m of html.matchAll(/<meta name="portal:modules" content="([^"]+)"/g)) for (const url of m[1].split(' ')) urls.add(url);
  return [...urls];
}

/** Static imports of a built chunk (dynamic import() is loaded later, not before the page is usable). */
export function staticImports(code: string): string[] {
  const specs = new Set<string>();
  for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g)) specs.add(m[1]);
  return [...specs];
}

/** Every chunk a page loads before it is usable, following static imports. */
export function initialChunks(webRoot: string, html: string): string[] {
  const seen = new Set<string>();
  const queue = pageScripts(html);
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(join(webRoot, url), 'utf8');
    for (const spec of staticImports(code)) queue.push(spec.startsWith('/') ? spec : posix.join(posix.dirname(url), spec));
  }
  return [...seen];
}

export function jsFigures(webRoot: string, biggest: ModuleSize[]): BenchFigure[] {
  const own = biggest.filter((m) => m.name.startsWith('src/'));
  const ownMin = own.reduce((sum, m) => sum + m.bytes, 0);
  const detail =
    `biggest: ${biggest
      .slice(0, 10)
      .map((m) => `${m.name} ${kB(m.gzipBytes)}`)
      .join(', ')} (kB gzip of each alone); ` + `our own src/** ${kB(ownMin)} kB minified in ${own.length} modules`;
  return BRANDS.map((brand, i) => {
    const html = readFileSync(join(webRoot, 'pages', brand.id, 'nl', 'be.html'), 'utf8');
    const chunks = initialChunks(webRoot, html);
    const gzip = chunks.reduce((sum, url) => sum + gzipSync(readFileSync(join(webRoot, url)), { level: 9 }).length, 0);
    return {
      name: `JS of the page and the app it loads at the first act, /${brand.id}/nl/be`,
      value: kB(gzip),
      unit: 'kB gzip',
      budgetKey: 'web.jsGzipKb',
      better: 'lower',
      detail: i === 0 ? `${chunks.length} chunk(s); ${detail}` : `${chunks.length} chunk(s)`,
    };
  });
}

/** Builds the client once more, with source maps, into a temp dir, and attributes the initial chunks' bytes to packages. */
async function biggestModules(): Promise<ModuleSize[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-bench-build-'));
  try {
    await build(
      mergeConfig(portalViteConfig(SPEC_BUILD), {
        root: ROOT,
        configFile: false,
        logLevel: 'error',
        build: { outDir, emptyOutDir: true, sourcemap: true },
      }),
    );
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const all = new Map<string, string[]>();
    for (const url of initialChunks(outDir, html)) {
      const file = join(outDir, url);
      if (!existsSync(`${file}.map`)) continue;
      const pieces = attribute(readFileSync(file, 'utf8'), JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      for (const [source, list] of pieces) all.set(source, [...(all.get(source) ?? []), ...list]);
    }
    return sizesByGroup(all);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const DESCRIPTION = 'De oven wordt niet meer warm en geeft een foutcode. '.repeat(200).slice(0, 8000);

/** Runs `action` in the page and times until `selector` appears, to the DOM commit and to the next frame. */
async function timeUntil(page: Page, selector: string, action: 'submit' | 'blur', target: string): Promise<{ dom: number; frame: number }> {
  return page.evaluate(
    ({ selector, action, target }) =>
      new Promise<{ dom: number; frame: number }>((resolve) => {
        const t0 = performance.now();
        const done = () => {
          const dom = performance.now() - t0;
          requestAnimationFrame(() => setTimeout(() => resolve({ dom, frame: performance.now() - t0 })));
        };
        const obs = new MutationObserver(() => {
          if (document.querySelector(selector)) {
            obs.disconnect();
            done();
          }
        });
        obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        const el = document.querySelector<HTMLElement>(target)!;
        if (action === 'submit') el.click();
        else el.blur();
      }),
    { selector, action, target },
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function blurToErrorFigures(browser: Browser, portal: Portal, runs = 5): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const brandId of ['ilve', 'kuppersbusch']) {
    const variant = BRANDS.find((b) => b.id === brandId)!.form;
    const context = await browser.newContext();
    await context.addInitScript(KEEP_NAMES_SHIM);
    const page = await context.newPage();
    const all: number[] = [];
    const blur: number[] = [];
    try {
      for (let i = 0; i < runs; i += 1) {
        await openBrandPage(page, portal.baseUrl, brandId, 'nl', 'be');
        await page.fill(field('description'), DESCRIPTION);
        all.push((await timeUntil(page, `#root_last_name__error`, 'submit', SUBMIT)).frame);

        await openBrandPage(page, portal.baseUrl, brandId, 'nl', 'be');
        await page.fill(field('description'), DESCRIPTION);
        await page.fill(field('postal_code'), 'x1');
        blur.push((await timeUntil(page, `#root_postal_code__error`, 'blur', field('postal_code'))).frame);
      }
    } finally {
      await context.close();
    }
    const fmt = (xs: number[]) => `runs ${xs.map((x) => x.toFixed(1)).join(', ')} ms`;
    figures.push({
      name: `Validate whole form: submit → errors shown, ${brandId} (${variant}), 8000-char description`,
      value: Math.round(median(all) * 10) / 10,
      unit: 'ms',
      budgetKey: 'web.validateAllMs',
      better: 'lower',
      detail: `median; ${fmt(all)}`,
    });
    figures.push({
      name: `Blur → field error shown, ${brandId} (${variant}), 8000-char description`,
      value: Math.round(median(blur) * 10) / 10,
      unit: 'ms',
      budgetKey: 'web.blurToErrorMs',
      better: 'lower',
      detail: `median; ${fmt(blur)}`,
    });
  }
  return figures;
}

/**
 * Runs `measure` on a private copy of a fresh build of the spec's brands: first on its files (sizes), then
 * with the real portal serving it (`env` beside the suite's own) and a Chromium.
 */
export async function onSpecBuild(
  env: Record<string, string>,
  files: (webRoot: string) => Promise<BenchFigure[]>,
  served: (browser: Browser, portal: Portal, webRoot: string) => Promise<BenchFigure[]>,
): Promise<BenchFigure[]> {
  buildIfStale();
  if (!existsSync(join(SPEC_BUILD.webRoot, 'pages')) || readdirSync(join(SPEC_BUILD.webRoot, 'pages')).length === 0) {
    throw new Error('dist/spec-web/pages is missing: the build of the spec\'s brands failed');
  }
  const snapshot = snapshotWebRoot();
  process.env.E2E_WEB_ROOT = snapshot.dir;
  try {
    const figures = await files(snapshot.dir);
    const [portal, browser] = await Promise.all([startPortal(env), launchChromium()]);
    try {
      figures.push(...(await served(browser, portal, snapshot.dir)));
    } finally {
      await browser.close();
      await portal.stop();
    }
    return figures;
  } finally {
    snapshot.remove();
  }
}

export function runWebBench(): Promise<BenchFigure[]> {
  return onSpecBuild(
    {},
    async (webRoot) => jsFigures(webRoot, process.env.BENCH_NO_ATTRIBUTION ? [] : await biggestModules()),
    async (browser, portal, webRoot) => [
      ...(await wireFigures(portal.baseUrl, webRoot, initialChunks)),
      ...lighthouseFigures(await lighthouseScores(portal.baseUrl)),
      ...(await blurToErrorFigures(browser, portal)),
      ...(await photoUploadFigures(browser, portal)),
    ],
  );
}
