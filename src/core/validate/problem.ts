/** One thing wrong in one file, said so that a brand owner can fix it. */
export interface Problem {
  /** Path of the file, relative to the project root, with forward slashes. */
  file: string;
  /** JSON pointer to the value in that file ("" = the whole file). */
  pointer: string;
  /** Where in the text (1-based): set by json-syntax for a file that does not parse, by locate.ts for the rest. */
  line?: number;
  column?: number;
  /** The problem is the name at the pointer, not its value (an unknown key): the place is the name. */
  atName?: boolean;
  /** A plain sentence; no schema jargon. */
  message: string;
}

/** What a finding is: a problem stops validate (and build, dev, start); a warning does not; a note is detail shown on request. */
export type Severity = 'error' | 'warning' | 'note';

/** RFC 6901 pointer from path segments (escapes ~ and /). */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** RFC 6901 pointer to its segments (unescaped); "" is the whole file. */
export function fromPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * One line, `file:line:column /pointer: sentence`: the place first, as compilers
 * print it, so terminals and editors open the file there; then the pointer
 * (the same place, by names), then what to do. A warning says so after the pointer.
 */
export function formatProblem({ file, pointer, line, column, message }: Problem, severity: Severity = 'error'): string {
  const place = line !== undefined ? `${file}:${line}:${column ?? 1}` : file;
  const label = severity === 'error' ? '' : `${severity}: `;
  return `${place}${pointer === '' ? '' : ` ${pointer}`}: ${label}${message}`;
}
