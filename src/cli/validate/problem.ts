/** One thing wrong in one file, said so that a brand owner can fix it. */
export interface Problem {
  /** Path of the file, relative to the project root, with forward slashes. */
  file: string;
  /** JSON pointer to the value in that file ("" = the whole file). */
  pointer: string;
  /** Where in the text, when the problem is in how the file is written (1-based). */
  line?: number;
  column?: number;
  /** A plain sentence; no schema jargon. */
  message: string;
}

/** RFC 6901 pointer from path segments (escapes ~ and /). */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function formatProblem({ file, pointer, line, column, message }: Problem): string {
  const where = line !== undefined ? `line ${line}, column ${column ?? 1}` : pointer === '' ? '(whole file)' : pointer;
  return `${file} ${where}: ${message}`;
}
