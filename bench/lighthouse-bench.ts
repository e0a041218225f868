/**
 * Lighthouse (the npm package, mobile defaults: simulated slow 4G, 4x CPU)
 * on Debian's Chromium against the real intake server, one page of each form
 * variant, the median of three runs: performance, FCP, LCP, TBT, CLS, script
 * bytes sent and script unused before the first interaction.
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
}

type Audits = Record<string, { numericValue?: number; details?: { overallSavingsBytes?: number; items?: { resourceType?: string; transferSize?: number }[] } }>;

function scoreOf(lhr: { categories: { performance: { score: number | null } }; audits: Audits }): PageScore {
  const a = lhr.audits;
  const scripts = a['resource-summary'].details?.items?.find((i) => i.resourceType === 'script');
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcpMs: Math.round(a['first-contentful-paint'].numericValue ?? 0),
    lcpMs: Math.round(a['largest-contentful-paint'].numericValue ?? 0),
    tbtMs: Math.round(a['total-blocking-time'].numericValue ?? 0),
    cls: Math.round((a['cumulative-layout-shift'].numericValue ?? 0) * 1000) / 1000,
    scriptKb: Math.round((scripts?.transferSize ?? 0) / 100) / 10,
    unusedScriptKb: Math.round((a['unused-javascript'].details?.overallSavingsBytes ?? 0) / 100) / 10,
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

/** Each figure's median over the runs (taken figure by figure, as Lighthouse's own guidance does). */
function medianScore(runs: PageScore[]): PageScore {
  const keys = Object.keys(runs[0]) as (keyof PageScore)[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as PageScore;
}

export async function lighthouseScores(baseUrl: string, pages = LIGHTHOUSE_PAGES): Promise<Map<string, PageScore>> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const scores = new Map<string, PageScore>();
    for (const path of pages) {
      const runs: PageScore[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const result = await lighthouse(`${baseUrl}${path}`, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', output: 'json' });
        if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
        runs.push(scoreOf(result.lhr as never));
      }
      scores.set(path, medianScore(runs));
    }
    return scores;
  } finally {
    chrome.kill();
  }
}

export function lighthouseFigures(scores: Map<string, PageScore>): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const [path, s] of scores) {
    const where = `${path} (Lighthouse mobile, median of ${RUNS})`;
    const detail = `TBT ${s.tbtMs} ms, script sent ${s.scriptKb} kB, unused before interaction ${s.unusedScriptKb} kB`;
    figures.push(
      { name: `performance score, ${where}`, value: s.performance, unit: '', budgetKey: 'web.lighthousePerformance', better: 'higher', detail },
      { name: `FCP, ${where}`, value: s.fcpMs, unit: 'ms', budgetKey: 'web.lighthouseFcpMs', better: 'lower' },
      { name: `LCP, ${where}`, value: s.lcpMs, unit: 'ms', budgetKey: 'web.lighthouseLcpMs', better: 'lower' },
      { name: `TBT, ${where}`, value: s.tbtMs, unit: 'ms', budgetKey: 'web.lighthouseTbtMs', better: 'lower' },
      { name: `CLS, ${where}`, value: s.cls, unit: '', budgetKey: 'web.cls', better: 'lower' },
      { name: `unused script before interaction, ${where}`, value: s.unusedScriptKb, unit: 'kB', better: 'lower' },
    );
  }
  return figures;
}
