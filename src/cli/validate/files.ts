import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { jsonSyntaxProblems } from './json-syntax.ts';
import type { Problem } from './problem.ts';

/** Project-relative path with forward slashes, as printed in problems. */
export function displayPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

export type ReadResult = { ok: true; data: unknown } | { ok: false; problems: Problem[] };

/** Reads and parses a JSON file; a missing file or broken JSON becomes problems, not an exception. */
export function readJson(root: string, file: string): ReadResult {
  const shown = displayPath(root, file);
  if (!existsSync(file)) {
    return { ok: false, problems: [{ file: shown, pointer: '', message: 'this file is missing.' }] };
  }
  const text = readFileSync(file, 'utf8');
  const syntax = jsonSyntaxProblems(text);
  if (syntax.length === 0) return { ok: true, data: JSON.parse(text) as unknown };
  return {
    ok: false,
    problems: syntax.map(({ line, column, message }) => ({
      file: shown,
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
