import { formatProblem, type Problem, type Severity } from './problem.ts';
import type { BrandPages, ProjectReport } from './project.ts';

/** How validate prints: lines for people, GitHub Actions annotations, or one JSON object per finding. */
export const OUTPUT_FORMATS = ['text', 'github', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  /** Each text that falls back to Dutch, not only the count per language (json always has them). */
  fallbacks: boolean;
}

interface Finding extends Problem {
  severity: Severity;
}

/** A finding as `--format json` prints it, one object per line; the studio shows these same objects. */
export interface JsonFinding {
  severity: Severity;
  file: string;
  /** From 1; null for a file that is not JSON (a picture). */
  line: number | null;
  column: number | null;
  pointer: string;
  message: string;
}

/** The findings in the order they come to matter: warnings first, then notes (when asked for), problems last. */
function findingsOf(report: ProjectReport, notes: boolean): Finding[] {
  return [
    ...report.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
    ...(notes ? report.notes.map((p) => ({ ...p, severity: 'note' as const })) : []),
    ...report.problems.map((p) => ({ ...p, severity: 'error' as const })),
  ];
}

/** Every finding of the report, notes included, as `--format json` prints them. */
export function jsonFindings(report: ProjectReport): JsonFinding[] {
  return findingsOf(report, true).map(({ severity, file, line, column, pointer, message }) => ({ severity, file, line: line ?? null, column: line === undefined ? null : (column ?? 1), pointer, message }));
}

/** The report as printed lines: the findings, then (but for json) the verdict. */
export function reportLines(report: ProjectReport, { format, fallbacks }: OutputOptions): string[] {
  if (format === 'json') return jsonFindings(report).map((finding) => JSON.stringify(finding));
  const lines = findingsOf(report, fallbacks).map((finding) => (format === 'github' ? annotation(finding) : formatProblem(finding, finding.severity)));
  return [...lines, ...verdict(report)];
}

function verdict({ problems, warnings, brandCount, forms, languages, pages }: ProjectReport): string[] {
  if (problems.length === 0) {
    const noted = warnings.length === 0 ? 'have no problems' : `have no problems (${warnings.length} warning${warnings.length === 1 ? '' : 's'} above)`;
    return [
      'The pages each brand serves:',
      ...pages.map((brand) => `  ${pagesLine(brand, languages)}`),
      `OK: ${brandCount} brand files, the forms ${forms.join(', ')}, the languages ${languages.join(', ')} and the countries ${noted}.`,
    ];
  }
  const files = new Set(problems.map((p) => p.file)).size;
  return ['', `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}. Fix them and run npm run validate again.`];
}

/** "teka: 8 pages, in nl and fr for be, fr, nl and lu (/teka/nl/be …), form "extended"", saying which languages of the portal it has no pages in. */
function pagesLine({ id, form, locales, countries }: BrandPages, portalLanguages: readonly string[]): string {
  const count = locales.length * countries.length;
  const first = count > 0 ? ` (/${id}/${locales[0]}/${countries[0]}${count > 1 ? ' …' : ''})` : '';
  const without = portalLanguages.filter((code) => !locales.includes(code));
  const none = without.length > 0 ? `; no pages in ${list(without)}` : '';
  return `${id}: ${count} page${count === 1 ? '' : 's'}, in ${list(locales)} for ${list(countries)}${first}, form "${form}"${none}`;
}

const list = (items: readonly string[]): string => (items.length <= 1 ? (items[0] ?? 'none') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** A GitHub Actions workflow command: `::error file=…,line=…,col=…::message`, escaped as the runner reads it. */
function annotation({ severity, file, line, column, pointer, message }: Finding): string {
  const command = severity === 'note' ? 'notice' : severity;
  const properties = [`file=${escapeProperty(file)}`, ...(line !== undefined ? [`line=${line}`, `col=${column ?? 1}`] : []), 'title=npm run validate'];
  return `::${command} ${properties.join(',')}::${escapeData(`${pointer === '' ? '' : `${pointer}: `}${message}`)}`;
}

const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
