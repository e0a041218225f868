/**
 * `npm run validate [-- --root <dir>]`: checks brand files, forms,
 * languages and countries, prints each problem as "<file> <pointer>: <sentence>"
 * (warnings first, as "warning: …"), exits 1 on any problem. The checks live in ./validate/ so tests call them
 * directly.
 */
import { fileURLToPath } from 'node:url';
import { formatProblem } from './validate/problem';
import { validateProject } from './validate/project';

export { validateProject } from './validate/project';
export type { Problem } from './validate/problem';

const defaultRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the checks and prints the result; returns the exit status. */
export function runValidate(argv: readonly string[], out: (line: string) => void = console.log): number {
  const rootFlag = argv.indexOf('--root');
  const root = rootFlag >= 0 && argv[rootFlag + 1] ? argv[rootFlag + 1] : defaultRoot;
  const { problems, warnings, brandCount, variants, languages } = validateProject(root);
  for (const warning of warnings) out(`warning: ${formatProblem(warning)}`);
  if (problems.length === 0) {
    const noted = warnings.length === 0 ? 'have no problems' : `have no problems (${warnings.length} warning${warnings.length === 1 ? '' : 's'} above)`;
    out(`OK: ${brandCount} brand files, the forms ${variants.join(', ')}, the languages ${languages.join(', ')} and the countries ${noted}.`);
    return 0;
  }
  for (const problem of problems) out(formatProblem(problem));
  const files = new Set(problems.map((p) => p.file)).size;
  out(`\n${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}. Fix them and run npm run validate again.`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = runValidate(process.argv.slice(2));
}
