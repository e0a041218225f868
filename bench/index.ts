/**
 * `npm run bench`: collects the figures of every bench module and prints
 * each beside its budget (bench/budget.json) as value, budget and ratio,
 * marking the ones over budget; any over budget makes the exit code 1, so a
 * run that misses a target (e.g. the phone figures of issue 28) says so.
 */
import '../src/cli/supported-node.mjs';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchFigure } from './figures';
import { runDeliveryBench } from './delivery-bench';
import { runStatementBench } from './statement-bench';
import { runSubmitBench } from './submit-bench';
import { runStudioBench } from './studio-bench';
import { runWebBench } from './web-bench';

type Budgets = Record<string, number>;

const budgets = JSON.parse(readFileSync(fileURLToPath(new URL('./budget.json', import.meta.url)), 'utf8')) as Budgets;

export function overBudget(figure: BenchFigure, budget: number): boolean {
  return figure.better === 'lower' ? figure.value > budget : figure.value < budget;
}

export function formatFigure(figure: BenchFigure, budgets: Budgets): string {
  const value = `${figure.value}${figure.unit ? ` ${figure.unit}` : ''}`;
  const budget = figure.budgetKey ? budgets[figure.budgetKey] : undefined;
  let verdict = '';
  if (budget !== undefined) {
    const ratio = budget === 0 ? Infinity : figure.value / budget;
    const over = overBudget(figure, budget);
    verdict = `budget ${figure.better === 'lower' ? '≤' : '≥'} ${budget}  ratio ${ratio.toFixed(2)}  ${over ? 'OVER BUDGET' : 'ok'}`;
  }
  const lines = [`${over(figure, budget) ? '✗' : budget === undefined ? '·' : '✓'} ${figure.name}: ${value}${verdict ? `  (${verdict})` : ''}`];
  if (figure.detail) lines.push(`    ${figure.detail}`);
  return lines.join('\n');
}

function over(figure: BenchFigure, budget: number | undefined): boolean {
  return budget !== undefined && overBudget(figure, budget);
}

async function serverFigures(): Promise<BenchFigure[]> {
  const module = new URL('./server-bench.ts', import.meta.url);
  if (!existsSync(fileURLToPath(module))) {
    console.log('· server figures: bench/server-bench.ts does not exist yet');
    return [];
  }
  const { runServerBench } = (await import(module.href)) as { runServerBench: () => Promise<BenchFigure[]> };
  return runServerBench();
}

async function main(): Promise<void> {
  const sections: [string, () => Promise<BenchFigure[]>][] = [
    ['web', runWebBench],
    ['studio', runStudioBench],
    ['submits', runSubmitBench],
    ['statement', runStatementBench],
    ['server', serverFigures],
    ['delivery', runDeliveryBench],
  ];
  // `npm run bench -- web delivery` runs those sections only.
  const only = process.argv.slice(2);
  const figures: BenchFigure[] = [];
  for (const [name, run] of sections.filter(([name]) => only.length === 0 || only.includes(name))) {
    console.log(`\n== ${name}`);
    try {
      const found = await run();
      for (const f of found) console.log(formatFigure(f, budgets));
      figures.push(...found);
    } catch (err) {
      console.log(`✗ ${name} bench failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  }
  const overList = figures.filter((f) => f.budgetKey && over(f, budgets[f.budgetKey]));
  console.log(`\n${figures.length} figures, ${overList.length} over budget${overList.length ? `: ${overList.map((f) => f.name).join('; ')}` : ''}`);
  if (overList.length > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
