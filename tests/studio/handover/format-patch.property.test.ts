import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPatch } from '../../../src/studio/handover/index.ts';
import { git, gitTry, readBytes, repoWith, tempFolder } from './support/git.ts';

// Lines as brand and language files have them, with the characters that trip diffs and mail:
// accents, emoji, leading "-", "+", "@@" or "From ", a lone backslash, trailing spaces, empty lines.
const line = fc.oneof(
  fc.constantFrom('', '{', '}', '  "name": "Pelgrim",', '  "heading": "Één réparation — Größe 🔧"', '-', '+x', '@@ -1 +1 @@', 'From me', '\\', 'trailing  '),
  fc.string({ unit: fc.constantFrom('a', 'é', ' ', '"', '🔧', '\t', ':'), maxLength: 12 }),
);
type Edit = { at: number; kind: 'insert' | 'delete' | 'replace'; text: string };
const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'replace'), text: line }) as fc.Arbitrary<Edit>;

function applyEdits(lines: string[], edits: Edit[]): string[] {
  const out = [...lines];
  for (const { at, kind, text } of edits) {
    const i = out.length === 0 ? 0 : at % (out.length + (kind === 'insert' ? 1 : 0));
    if (kind === 'insert') out.splice(i, 0, text);
    else if (out.length > 0) out.splice(i, 1, ...(kind === 'replace' ? [text] : []));
  }
  return out;
}

/** A file's text: its lines with one ending (LF, or CRLF as some editors save), with or without a last one. */
const text = (lines: string[], ending: string, last: boolean) => lines.join(ending) + (last && lines.length > 0 ? ending : '');

describe('formatPatch, for any line edits of a text file', () => {
  it('gives a patch that git am applies to exactly the edited bytes', () => {
    const folder = tempFolder('studio-am-property');
    try {
      let run = 0;
      fc.assert(
        fc.property(
          fc.array(line, { maxLength: 30 }),
          fc.array(edit, { minLength: 1, maxLength: 8 }),
          fc.record({ crlf: fc.boolean(), lastBefore: fc.boolean(), lastAfter: fc.boolean() }),
          (lines, edits, ends) => {
            const ending = ends.crlf ? '\r\n' : '\n';
            const before = text(lines, ending, ends.lastBefore);
            const after = text(applyEdits(lines, edits), ending, ends.lastAfter);
            fc.pre(before !== after);
            const dir = join(folder.path, String(run++));
            mkdirSync(dir);
            repoWith(dir, { 'schemas/i18n/de.json': before });
            writeFileSync(`${dir}.patch`, formatPatch([{ path: 'schemas/i18n/de.json', before, after }], message));
            const am = gitTry(dir, ['am', `${dir}.patch`]);
            expect(am.output).not.toMatch(/error|fatal/i);
            expect(new TextDecoder().decode(readBytes(dir, 'schemas/i18n/de.json'))).toBe(after);
            expect(git(dir, ['rev-list', '--count', 'HEAD'])).toBe('2\n');
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      folder.remove();
    }
  }, 120_000);
});

const message = { subject: 'Change German texts (schemas/i18n/de.json)', body: '', author: { name: 'Studio', email: 'studio@example.org' }, date: new Date(0) };
