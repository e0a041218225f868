/**
 * Web figures of `npm run bench`:
 * - gzip JavaScript each brand page loads before it is usable (the built
 *   HTML's module scripts and modulepreloads plus their static imports), and
 *   the biggest modules in it (from a sourcemapped build of the same config);
 * - LCP and CLS in Chromium with 4x CPU slowdown and a slow-4G profile,
 *   against the real intake server;
 * - blur-to-error with an 8,000-character description: submit → every error
 *   shown (one whole-form validation), and blur → that field's error shown.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { buildIfStale, snapshotWebRoot } from '../tests/e2e/support/global-setup';
import { launchChromium } from '../tests/e2e/support/browser';
import { BRANDS } from '../tests/e2e/support/fixtures';
import { SUBMIT, field, openBrandPage, waitForHydration } from '../tests/e2e/support/form-page';
import { ROOT, WEB_ROOT } from '../tests/e2e/support/paths';
import { startPortal, type Portal } from '../tests/e2e/support/portal';
import type { BenchFigure } from './figures';
import { attribute, sizesByGroup, type ModuleSize } from './sourcemap-attribution';
import { photoUploadFigures } from './photo-bench';
import { wireFigures } from './wire-bytes';

/** tsx (esbuild keepNames) wraps named functions in __name(); functions sent to page.evaluate need it in the page. */
const KEEP_NAMES_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

/** URL paths of the JavaScript an HTML page loads up front. */
export function pageScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) urls.add(m[1]);
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

function jsFigures(webRoot: string, biggest: ModuleSize[]): BenchFigure[] {
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
      name: `JS before usable, /${brand.id}/nl/be`,
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
    await build({
      root: ROOT,
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, sourcemap: true },
    });
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

/** Lighthouse's mobile "slow 4G" as DevTools applies it: 150 ms RTT × 3.75, 1.6 Mbps × 0.9 down, 750 kbps × 0.9 up. */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};

async function loadMetrics(browser: Browser, baseUrl: string, path: string): Promise<{ lcp: number; cls: number; lcpElement: string }> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    await context.addInitScript(KEEP_NAMES_SHIM);
    const page = await context.newPage();
    page.on('crash', () => console.error(`page crashed while measuring ${path}`));
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number; __lcpEl: string; __cls: number };
      w.__lcp = 0;
      w.__cls = 0;
      w.__lcpEl = '';
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
          w.__lcp = e.startTime;
          w.__lcpEl = e.element ? `${e.element.tagName.toLowerCase()}.${[...e.element.classList].join('.')}` : '';
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      // CLS as Chromium reports it: the largest session window (gap < 1 s, window < 5 s).
      let session = 0;
      let first = 0;
      let last = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (e.hadRecentInput) continue;
          if (session && (e.startTime - last > 1000 || e.startTime - first > 5000)) session = 0;
          if (!session) first = e.startTime;
          session += e.value;
          last = e.startTime;
          w.__cls = Math.max(w.__cls, session);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'load', timeout: 60_000 });
    await waitForHydration(page, SUBMIT, 60_000);
    await page.waitForTimeout(1500);
    return await page.evaluate(() => {
      const w = window as unknown as { __lcp: number; __lcpEl: string; __cls: number };
      return { lcp: w.__lcp, cls: w.__cls, lcpElement: w.__lcpEl };
    });
  } finally {
    await context.close();
  }
}

async function lcpClsFigures(browser: Browser, portal: Portal): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const cls: string[] = [];
  let worstCls = 0;
  for (const brand of BRANDS) {
    const m = await loadMetrics(browser, portal.baseUrl, `/${brand.id}/nl/be`);
    figures.push({
      name: `LCP, /${brand.id}/nl/be (4x CPU, slow 4G)`,
      value: Math.round(m.lcp),
      unit: 'ms',
      budgetKey: 'web.lcpMs',
      better: 'lower',
      detail: `LCP element ${m.lcpElement || '?'}`,
    });
    cls.push(`${brand.id} ${m.cls.toFixed(3)}`);
    worstCls = Math.max(worstCls, m.cls);
  }
  figures.push({ name: 'CLS, worst brand page (4x CPU, slow 4G)', value: Math.round(worstCls * 1000) / 1000, unit: '', budgetKey: 'web.cls', better: 'lower', detail: cls.join(', ') });
  return figures;
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
    const variant = BRANDS.find((b) => b.id === brandId)!.variant;
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

export async function runWebBench(): Promise<BenchFigure[]> {
  buildIfStale();
  if (!existsSync(join(WEB_ROOT, 'pages')) || readdirSync(join(WEB_ROOT, 'pages')).length === 0) {
    throw new Error('dist/web/pages is missing: run npm run build');
  }
  const snapshot = snapshotWebRoot();
  process.env.E2E_WEB_ROOT = snapshot.dir;
  try {
    const figures = jsFigures(snapshot.dir, process.env.BENCH_NO_ATTRIBUTION ? [] : await biggestModules());
    const [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    try {
      figures.push(...(await wireFigures(portal.baseUrl, snapshot.dir, initialChunks)));
      figures.push(...(await lcpClsFigures(browser, portal)));
      figures.push(...(await blurToErrorFigures(browser, portal)));
      figures.push(...(await photoUploadFigures(browser, portal)));
    } finally {
      await browser.close();
      await portal.stop();
    }
    return figures;
  } finally {
    snapshot.remove();
  }
}
