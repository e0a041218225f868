/**
 * Where validate's findings point, as CI and editors read them: `file:line:column` first in its own lines,
 * GitHub Actions annotations with `--format github`, one JSON object per finding with `--format json`.
 * Run as a brand owner's CI runs it (the command, in a copy of the project), and each place checked
 * against the file itself.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyProject, removeProject, repoRoot } from './project-copy';

const tsx = join(repoRoot, 'node_modules/.bin/tsx');
const validate = (root: string, ...args: string[]) =>
  spawnSync(tsx, ['src/cli/validate.ts', '--root', root, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });

/** The text of a file from a line and column (both from 1), as an editor jumping there shows it. */
function textAt(root: string, file: string, line: number, column: number): string {
  return readFileSync(join(root, file), 'utf8').split('\n')[line - 1].slice(column - 1);
}

/** Three mistakes in one brand file: a form with a space after it, a country in capitals, a colour the theme does not have. */
function breakFratelli(root: string): void {
  const file = join(root, 'brands/fratelli.json');
  const text = readFileSync(file, 'utf8');
  const broken = text
    .replace('"form": "simple"', '"form": "simple "')
    .replace('"countries": ["be", "fr", "nl", "lu"]', '"countries": ["be", "FR", "nl", "lu"]')
    .replace('"primary": "#5b3a8c",', '"primary": "#5b3a8c",\n    "headerColour": "#000000",');
  expect(broken.split('\n').length).toBe(text.split('\n').length + 1);
  writeFileSync(file, broken);
}

describe('npm run validate on a brand file with three mistakes', () => {
  let root: string;
  beforeEach(() => {
    root = copyProject();
    breakFratelli(root);
  });
  afterEach(() => removeProject(root));

  it('--format github prints three annotations whose line and column point at the mistakes', () => {
    const result = validate(root, '--format', 'github');
    expect(result.status).toBe(1);
    const annotations = result.stdout.split('\n').filter((line) => line.startsWith('::error '));
    expect(annotations).toHaveLength(3);
    const parsed = annotations.map((line) => {
      const [, file, row, col, message] = /^::error file=([^,]+),line=(\d+),col=(\d+),title=npm run validate::(.*)$/.exec(line)!;
      return { file, at: textAt(root, file, Number(row), Number(col)), message };
    });
    expect(parsed.map(({ file }) => file)).toEqual(['brands/fratelli.json', 'brands/fratelli.json', 'brands/fratelli.json']);
    // The value that is wrong, the wrong item of the list, the name the theme does not know.
    expect(parsed.map(({ at }) => at)).toEqual([expect.stringMatching(/^"headerColour": "#000000",$/), expect.stringMatching(/^"simple ",$/), expect.stringMatching(/^"FR", "nl", "lu"\],$/)]);
    expect(parsed.map(({ message }) => message)).toEqual([
      expect.stringMatching(/^\/theme\/headerColour: "headerColour" is not a colour this file knows\./),
      expect.stringMatching(/^\/form: "simple " has a space at its end: write "simple"\./),
      expect.stringMatching(/^\/countries\/1: "FR": a country code is written in lower case: write "fr"\./),
    ]);
  });

  it('prints file:line:column first, then the pointer and the sentence, for terminals and editors to link', () => {
    const result = validate(root);
    expect(result.status).toBe(1);
    const problems = result.stdout.split('\n').filter((line) => line.startsWith('brands/fratelli.json:'));
    expect(problems).toHaveLength(3);
    for (const line of problems) {
      const [, file, row, col] = /^([^:]+):(\d+):(\d+) \/\S+: /.exec(line)!;
      expect(textAt(root, file, Number(row), Number(col))).toMatch(/^"/);
    }
    expect(result.stdout).toContain('3 problems in 1 file.');
  });

  it('--format json prints one JSON object per finding, warnings and notes with their severity', () => {
    const result = validate(root, '--format', 'json');
    expect(result.status).toBe(1);
    const findings = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const errors = findings.filter((f) => f.severity === 'error');
    expect(errors).toHaveLength(3);
    expect(errors[1]).toEqual({ severity: 'error', file: 'brands/fratelli.json', line: 6, column: 11, pointer: '/form', message: expect.stringMatching(/^"simple " has a space at its end/) });
    expect(textAt(root, 'brands/fratelli.json', 6, 11)).toMatch(/^"simple "/);
    expect(findings.every((f) => ['error', 'warning', 'note'].includes(String(f.severity)))).toBe(true);
  });
});

describe('npm run validate, given wrongly', () => {
  it('names the formats it knows, and exits 2', () => {
    const result = validate(repoRoot, '--format', 'xml');
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^"xml" is not a format validate knows\.\nUsage: npm run validate \[-- --format text\|github\|json\] \[--fallbacks\]/);
  });
});
