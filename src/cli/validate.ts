/**
 * `npm run validate [-- --root <dir>] [--format text|github|json] [--fallbacks]`:
 * checks brand files, forms, languages and countries and prints each finding
 * as "<file>:<line>:<column> <pointer>: <sentence>" (warnings say so), GitHub
 * Actions annotations, or one JSON object per finding; exits 1 on any
 * problem. The checks live in ./validate/ so tests call them directly.
 */
import { fileURLToPath } from 'node:url';
import { validateProject } from './validate/project';
import { OUTPUT_FORMATS, reportLines, type OutputFormat } from './validate/report-format';
import { optionValue } from './option-value';

export { validateProject } from './validate/project';
export type { Problem } from './validate/problem';

const defaultRoot = fileURLToPath(new URL('../../', import.meta.url));
const USAGE = `Usage: npm run validate [-- --format ${OUTPUT_FORMATS.join('|')}] [--fallbacks]
  --format github  GitHub Actions annotations (::error file=…,line=…,col=…::…)
  --format json    one JSON object per finding (severity, file, line, column, pointer, message)
  --fallbacks      list each text a language lacks (it shows in Dutch), not only the count`;

/** Runs the checks and prints the result; returns the exit status (2: the command was given wrongly). */
export function runValidate(argv: readonly string[], out: (line: string) => void = console.log): number {
  const format = optionValue(argv, '--format') ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    out(`"${format}" is not a format validate knows.\n${USAGE}`);
    return 2;
  }
  const report = validateProject(optionValue(argv, '--root') ?? defaultRoot);
  for (const line of reportLines(report, { format: format as OutputFormat, fallbacks: argv.includes('--fallbacks') })) out(line);
  return report.problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = runValidate(process.argv.slice(2));
}
