/**
 * autocannon runs measured by the bench itself: autocannon's `requests.average`
 * is a mean of per-second samples and its `finish` waits for the next
 * whole-second tick, so both can only take values of amount / whole seconds.
 * Several runs started together (one per server instance) count as one load.
 */
import autocannon, { type Options } from 'autocannon';

export interface LoadResult {
  /** 2xx answers divided by the time from the start to the last answer. */
  perSecond: number;
  /** Answers of any status; errors and timeouts are counted apart. */
  answered: number;
  failed: number;
  /** Over every answer of every run, in ms. */
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

const twoDecimals = (ms: number) => Math.round(ms * 100) / 100;

/** Starts every run at once; the figures are over all of them (total 2xx / elapsed, percentiles of all answers). */
export async function timedLoad(runs: Options[]): Promise<LoadResult> {
  const started = performance.now();
  let last = started;
  let succeeded = 0;
  const latencies: number[] = [];
  const results = await Promise.all(
    runs.map((options) =>
      autocannon(options).on('response', (_client, statusCode, _bytes, ms) => {
        last = performance.now();
        latencies.push(ms);
        if (statusCode >= 200 && statusCode < 300) succeeded++;
      }),
    ),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: succeeded / ((last - started) / 1000),
    answered: latencies.length,
    failed: latencies.length - succeeded + results.reduce((n, r) => n + r.errors + r.timeouts, 0),
    p50: twoDecimals(percentile(latencies, 50)),
    p99: twoDecimals(percentile(latencies, 99)),
    max: twoDecimals(latencies.at(-1) ?? NaN),
  };
}
