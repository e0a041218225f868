import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The spec's forms, languages and countries (today's files, copied): what tests read, whatever schemas/ becomes. */
export const SPEC_SCHEMAS_DIR = join(import.meta.dirname, '../fixtures/schemas/spec');

/** A copy of the spec's schemas in a temp folder, for a test that changes them as a brand owner would. */
export function schemasCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  cpSync(SPEC_SCHEMAS_DIR, dir, { recursive: true });
  return dir;
}

type Json = Record<string, unknown>;

/** Edits one JSON file of a schemas folder as a person does in an editor: read, change, write back. */
export function editJson(dir: string, file: string, change: (data: Json) => void): void {
  const path = join(dir, file);
  const data = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(data);
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}
