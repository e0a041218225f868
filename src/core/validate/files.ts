import type { ProjectFiles } from '../project-files.ts';
import { jsonSyntaxProblems } from './json-syntax.ts';
import type { Problem } from './problem.ts';

export type ReadResult = { ok: true; data: unknown } | { ok: false; problems: Problem[] };

/** Reads and parses a JSON file (a project path, as printed in problems); a missing file or broken JSON becomes problems, not an exception. */
export function readJson(files: ProjectFiles, path: string): ReadResult {
  const text = files.text(path);
  if (text === undefined) {
    return { ok: false, problems: [{ file: path, pointer: '', message: 'this file is missing.' }] };
  }
  const syntax = jsonSyntaxProblems(text);
  if (syntax.length === 0) return { ok: true, data: JSON.parse(text) as unknown };
  return {
    ok: false,
    problems: syntax.map(({ line, column, message }) => ({
      file: path,
      pointer: '',
      line,
      column,
      message: `${message} Nothing else in this file can be checked until it reads as JSON.`,
    })),
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
