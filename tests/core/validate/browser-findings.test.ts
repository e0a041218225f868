/**
 * The golden test of the brand studio (issue 47): the checks run on files held in memory, as the
 * browser holds a brand owner's edits, find what `npm run validate -- --format json` prints for the
 * same files on disk, line for line: the same words at the same file, line, column and pointer.
 * Each broken brand fixture is dropped into a copy of the project; so are a few broken forms,
 * languages and countries. The command runs in process for every copy, and spawned for a handful.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../../src/cli/validate';
import { checkProject, inMemoryFiles, jsonFindings } from '../../../src/core/validate';
import { copyProject, editJson, fixturesDir, removeProject, repoRoot } from '../../cli/project-copy';

const INVALID = join(fixturesDir, 'invalid');
const brokenBrands = readdirSync(INVALID).filter((f) => f.endsWith('.json'));

/** Every file of the copy's brands/ and schemas/, as bytes by project path: what the studio holds after loading the project. */
function filesOf(root: string): Record<string, Uint8Array> {
  const entries: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else entries[relative(root, path).split(sep).join('/')] = new Uint8Array(readFileSync(path));
    }
  };
  for (const dir of ['brands', 'schemas']) walk(join(root, dir));
  return entries;
}

/** The studio's findings on the copy, as `--format json` lines. */
const studioLines = (root: string) => jsonFindings(checkProject(inMemoryFiles(filesOf(root)))).map((finding) => JSON.stringify(finding));

function cliLines(root: string): string[] {
  const lines: string[] = [];
  runValidate(['--root', root, '--format', 'json'], (line) => lines.push(line));
  return lines;
}

function spawnedLines(root: string): string[] {
  const tsx = join(repoRoot, 'node_modules/.bin/tsx');
  const result = spawnSync(tsx, ['src/cli/validate.ts', '--root', root, '--format', 'json'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** A copy of the project with the fixture as one of its brand files (its $schema as a file in brands/ writes it) and the fixtures' pictures. */
function copyWithBrand(fixture: string): string {
  const root = copyProject();
  const text = readFileSync(join(INVALID, fixture), 'utf8').replace('"../../../../schemas/brand.schema.json"', '"../schemas/brand.schema.json"');
  writeFileSync(join(root, 'brands', fixture), text);
  cpSync(join(INVALID, 'assets'), join(root, 'brands/assets'), { recursive: true });
  return root;
}

/** Mistakes a brand owner makes in the forms, languages and countries. */
const dataBreakages: [string, (root: string) => void][] = [
  [
    'a comma missing in the shared fields',
    (root) => {
      const file = join(root, 'schemas/forms/fields.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/("maxLength": \d+),\n/, '$1\n'));
    },
  ],
  [
    'a misspelt option and a field in no section',
    (root) =>
      editJson(root, 'schemas/forms/simple.ui.json', (ui) => {
        ui['ui:options'].errorSumary = true;
        ui['ui:options'].sections[1].fields[0] = 'brnd';
      }),
  ],
  [
    'texts French lacks, and Dutch labels gone',
    (root) => {
      editJson(root, 'schemas/i18n/fr.json', (t) => delete t.footer.phone);
      editJson(root, 'schemas/i18n/nl.json', (t) => delete t.sections);
    },
  ],
  [
    'a country with a broken pattern, and one that is no code',
    (root) =>
      editJson(root, 'schemas/countries.json', (c) => {
        c.countries.nl.postalCode = '([';
        c.countries.XX = {};
      }),
  ],
];

describe('the studio finds what npm run validate -- --format json prints', () => {
  const roots = new Map<string, string>();
  beforeAll(() => {
    for (const fixture of brokenBrands) roots.set(fixture, copyWithBrand(fixture));
    for (const [name, breakIt] of dataBreakages) {
      const root = copyProject();
      breakIt(root);
      roots.set(name, root);
    }
  });
  afterAll(() => roots.forEach(removeProject));

  it.each(brokenBrands)('brands/%s', (fixture) => {
    const root = roots.get(fixture)!;
    const cli = cliLines(root);
    expect(cli.some((line) => line.includes(`"file":"brands/${fixture}"`) && line.startsWith('{"severity":"error"'))).toBe(true);
    expect(studioLines(root)).toEqual(cli);
  });

  it.each(dataBreakages.map(([name]) => name))('%s', (name) => {
    const root = roots.get(name)!;
    const cli = cliLines(root);
    expect(cli.some((line) => line.startsWith('{"severity":"error"'))).toBe(true);
    expect(studioLines(root)).toEqual(cli);
  });

  it.each(['invalid-json.json', 'missing-asset.json', 'schema-ref.json', 'low-contrast.json'])('brands/%s, as the command prints it', (fixture) => {
    const root = roots.get(fixture)!;
    expect(studioLines(root)).toEqual(spawnedLines(root));
  });

  it.each(['a comma missing in the shared fields'])('%s, as the command prints it', (name) => {
    const root = roots.get(name)!;
    expect(studioLines(root)).toEqual(spawnedLines(root));
  });
});
