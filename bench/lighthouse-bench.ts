/**
 * Lighthouse (the npm package, mobile defaults: simulated slow 4G, 4x CPU)
 * on Debian's Chromium against the real intake server, one page of each form,
 * the median of three runs: performance, FCP, LCP, TBT, CLS, script bytes
 * sent and script unused before the first interaction.
 * What the portal's scripts cost by themselves: each run of the page as served
 * is followed, in the same Chromium, by a run of the same page with every
 * script blocked (the server-rendered form, as without JavaScript), so that
 * the host's own cost (its CPU, its browser build, what else it is doing)
 * falls out of the difference: the scripts' TBT is served − blocked, taken
 * run by run and then the median, and so is the performance they cost.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH } from '../tests/e2e/support/browser';
import type { BenchFigure } from './figures';

export const LIGHTHOUSE_PAGES = ['/kuppersbusch/nl/nl', '/ilve/nl/be'];
const RUNS = 3;

export interface PageScore {
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptKb: number;
  unusedScriptKb: number;
  /** Script evaluation, parse and compile of the page's own scripts (bootup-time), under the 4x slowdown. */
  evalMs: number;
  /** The longest main-thread task attributed to one of the page's own scripts (long-tasks); 0 when none is 50 ms or more. */
  longestOwnTaskMs: number;
}

/** A page's figures as served, with every script blocked, and the scripts' own cost (served − blocked, per run). */
export interface PageCost {
  served: PageScore;
  blocked: PageScore;
  scriptTbtMs: number;
  scriptPerformanceCost: number;
}

interface AuditItem {
  resourceType?: string;
  transferSize?: number;
  url?: string;
  duration?: number;
  scripting?: number;
  scriptParseCompile?: number;
}
type Audits = Record<string, { numericValue?: number; details?: { overallSavingsBytes?: number; items?: AuditItem[] } }>;

function scoreOf(lhr: { categories: { performance: { score: number | null } }; audits: Audits }, origin: string): PageScore {
  const a = lhr.audits;
  const own = (item: AuditItem) => typeof item.url === 'string' && item.url.startsWith(origin);
  // Lighthouse names the document for its parsing and layout tasks; those are there with scripts blocked too.
  const ownScript = (item: AuditItem) => own(item) && /\.m?js(?:$|\?)/.test(item.url!);
  const evalMs = (a['bootup-time'].details?.items ?? []).filter(own).reduce((sum, i) => sum + (i.scripting ?? 0) + (i.scriptParseCompile ?? 0), 0);
  const scripts = a['resource-summary'].details?.items?.find((i) => i.resourceType === 'script');
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcpMs: Math.round(a['first-contentful-paint'].numericValue ?? 0),
    lcpMs: Math.round(a['largest-contentful-paint'].numericValue ?? 0),
    tbtMs: Math.round(a['total-blocking-time'].numericValue ?? 0),
    cls: Math.round((a['cumulative-layout-shift'].numericValue ?? 0) * 1000) / 1000,
    scriptKb: Math.round((scripts?.transferSize ?? 0) / 100) / 10,
    unusedScriptKb: Math.round((a['unused-javascript'].details?.overallSavingsBytes ?? 0) / 100) / 10,
    evalMs: Math.round(evalMs),
    longestOwnTaskMs: Math.round(Math.max(0, ...(a['long-tasks']?.details?.items ?? []).filter(ownScript).map((i) => i.duration ?? 0))),
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

/** Each figure's median over the runs (taken figure by figure, as Lighthouse's own guidance does). */
function medianScore(runs: PageScore[]): PageScore {
  const keys = Object.keys(runs[0]) as (keyof PageScore)[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as PageScore;
}

/** Every script of the page, for Lighthouse's blockedUrlPatterns. */
const EVERY_SCRIPT = ['*.js', '*.mjs'];

export async function lighthouseScores(baseUrl: string, pages = LIGHTHOUSE_PAGES): Promise<Map<string, PageCost>> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const { origin } = new URL(baseUrl);
  const run = async (path: string, blockedUrlPatterns: string[]) => {
    const result = await lighthouse(`${baseUrl}${path}`, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', output: 'json', blockedUrlPatterns });
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    return scoreOf(result.lhr as never, origin);
  };
  try {
    const costs = new Map<string, PageCost>();
    for (const path of pages) {
      const served: PageScore[] = [];
      const blocked: PageScore[] = [];
      // Interleaved, so that a busy spell of the host weighs on both alike.
      for (let i = 0; i < RUNS; i += 1) {
        served.push(await run(path, []));
        blocked.push(await run(path, EVERY_SCRIPT));
      }
      costs.set(path, {
        served: medianScore(served),
        blocked: medianScore(blocked),
        scriptTbtMs: median(served.map((s, i) => s.tbtMs - blocked[i].tbtMs)),
        scriptPerformanceCost: median(served.map((s, i) => blocked[i].performance - s.performance)),
      });
    }
    return costs;
  } finally {
    chrome.kill();
  }
}

export function lighthouseFigures(costs: Map<string, PageCost>): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const [path, { served: s, blocked: b, scriptTbtMs, scriptPerformanceCost }] of costs) {
    const where = `${path} (Lighthouse mobile, median of ${RUNS})`;
    const detail = `TBT ${s.tbtMs} ms, script sent ${s.scriptKb} kB, unused before interaction ${s.unusedScriptKb} kB`;
    const against = `served: performance ${s.performance}, TBT ${s.tbtMs} ms; every script blocked: performance ${b.performance}, TBT ${b.tbtMs} ms (the host's own cost)`;
    figures.push(
      { name: `performance score, ${where}`, value: s.performance, unit: '', budgetKey: 'web.lighthousePerformance', better: 'higher', detail },
      { name: `FCP, ${where}`, value: s.fcpMs, unit: 'ms', budgetKey: 'web.lighthouseFcpMs', better: 'lower' },
      { name: `LCP, ${where}`, value: s.lcpMs, unit: 'ms', budgetKey: 'web.lighthouseLcpMs', better: 'lower' },
      { name: `TBT, ${where}`, value: s.tbtMs, unit: 'ms', budgetKey: 'web.lighthouseTbtMs', better: 'lower' },
      { name: `CLS, ${where}`, value: s.cls, unit: '', budgetKey: 'web.cls', better: 'lower' },
      { name: `unused script before interaction, ${where}`, value: s.unusedScriptKb, unit: 'kB', budgetKey: 'web.unusedScriptKb', better: 'lower' },
      { name: `TBT the portal's scripts add (served − scripts blocked, run by run), ${where}`, value: scriptTbtMs, unit: 'ms', budgetKey: 'web.scriptTbtMs', better: 'lower', detail: against },
      { name: `performance the portal's scripts cost (scripts blocked − served), ${where}`, value: scriptPerformanceCost, unit: '', budgetKey: 'web.scriptPerformanceCost', better: 'lower' },
      { name: `evaluation, parse and compile of the portal's scripts, ${where}`, value: s.evalMs, unit: 'ms', better: 'lower' },
      { name: `longest task in the portal's scripts, ${where}`, value: s.longestOwnTaskMs, unit: 'ms', budgetKey: 'web.longestScriptTaskMs', better: 'lower' },
    );
  }
  return figures;
}
