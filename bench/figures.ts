/** One measured figure of `npm run bench`, printed beside its budget when it has one. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** Key in bench/budget.json, when the figure has a budget. */
  budgetKey?: string;
  /** Whether a higher value is better (throughput) or worse (latency, size). */
  better: 'lower' | 'higher';
  /** Extra context printed after the figure, e.g. a ratio or the biggest modules. */
  detail?: string;
}
