import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Problem } from './problem';

/** Project-relative path with forward slashes, as printed in problems. */
export function displayPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

export type ReadResult = { ok: true; data: unknown } | { ok: false; problem: Problem };

/** Reads and parses a JSON file; a missing file or broken JSON becomes a problem, not an exception. */
export function readJson(root: string, file: string): ReadResult {
  const shown = displayPath(root, file);
  if (!existsSync(file)) {
    return { ok: false, problem: { file: shown, pointer: '', message: 'this file is missing.' } };
  }
  const text = readFileSync(file, 'utf8');
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: { file: shown, pointer: '', message: jsonSyntaxMessage(text, error) } };
  }
}

/** "line 12" is what an editor shows; Node reports a character position. */
function jsonSyntaxMessage(text: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(reason);
  const where = position ? ` near line ${text.slice(0, Number(position[1])).split('\n').length}` : '';
  return (
    `this file is not valid JSON${where}, so nothing else in it could be checked. ` +
    'Look for a missing comma or quote, or a comma after the last item of a list. ' +
    `(${reason})`
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
