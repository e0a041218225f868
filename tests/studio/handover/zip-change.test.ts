import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { zipChange, ZIP_NOTE, type FileChange } from '../../../src/studio/handover/index.ts';
import { readBytes, tempFolder } from './support/git.ts';
import { noisyPng } from './support/png.ts';

const folders: { remove: () => void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

/** The zip as Python's zipfile reads it: its files extracted, and each entry's stored date and time. */
function unzipped(zip: Uint8Array): { dir: string; dates: Record<string, number[]> } {
  const folder = tempFolder('studio-zip');
  folders.push(folder);
  writeFileSync(join(folder.path, 'change.zip'), zip);
  const dir = join(folder.path, 'out');
  execFileSync('python3', ['-m', 'zipfile', '-e', join(folder.path, 'change.zip'), dir]);
  const dates = execFileSync('python3', ['-c', 'import json,sys,zipfile; print(json.dumps({i.filename: i.date_time for i in zipfile.ZipFile(sys.argv[1]).infolist()}))', join(folder.path, 'change.zip')]);
  return { dir, dates: JSON.parse(dates.toString()) as Record<string, number[]> };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('zipChange', () => {
  let changes: FileChange[];
  beforeAll(async () => {
    changes = [
      { path: 'brands/pelgrim.json', after: '{\n  "name": "Pelgrim"\n}\n' },
      { path: 'schemas/i18n/de.json', after: '{ "heading": "Größe ändern 🔧" }' },
      { path: 'schemas/forms/windows.ui.json', before: '{\r\n}\r\n', after: '{\r\n  "a": 1\r\n}\r\n' },
      { path: 'brands/assets/pelgrim-logo.png', after: await noisyPng(32, 7) },
      { path: 'brands/assets/teka-favicon.svg', before: '<svg/>' },
      { path: 'schemas/i18n/nl.json', before: '{}', after: '{}' },
    ];
  });

  it('holds the new and changed files at their project paths, byte for byte, and a note naming the deleted ones', () => {
    const { dir } = unzipped(zipChange(changes, { note: 'Add brand Pelgrim.' }));
    expect(filesUnder(dir)).toEqual([ZIP_NOTE, 'brands/assets/pelgrim-logo.png', 'brands/pelgrim.json', 'schemas/forms/windows.ui.json', 'schemas/i18n/de.json']);
    for (const change of changes.filter((c) => c.after !== undefined && c.before !== c.after)) {
      const expected = typeof change.after === 'string' ? new TextEncoder().encode(change.after) : change.after;
      expect(readBytes(dir, change.path), change.path).toEqual(expected);
    }
    expect(new TextDecoder().decode(readBytes(dir, ZIP_NOTE))).toBe('Add brand Pelgrim.\n\nDelete these files from the project:\n- brands/assets/teka-favicon.svg\n');
  });

  it('has no note where nothing is deleted and none is given', () => {
    expect(filesUnder(unzipped(zipChange(changes.slice(0, 2))).dir)).toEqual(['brands/pelgrim.json', 'schemas/i18n/de.json']);
  });

  it('gives the same bytes for the same change in any time zone, dated as asked in UTC', () => {
    const zone = process.env.TZ;
    const date = new Date('2026-03-04T10:20:30Z');
    try {
      process.env.TZ = 'Pacific/Auckland';
      const far = zipChange(changes, { date });
      process.env.TZ = 'America/New_York';
      const near = zipChange(changes, { date });
      expect(Buffer.from(far).equals(Buffer.from(near))).toBe(true);
      expect(unzipped(near).dates['brands/pelgrim.json']).toEqual([2026, 3, 4, 10, 20, 30]);
      expect(unzipped(zipChange(changes)).dates['brands/pelgrim.json']).toEqual([1980, 1, 1, 0, 0, 0]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('refuses a change that changes nothing, and a project file in the note\'s place', () => {
    expect(() => zipChange([changes[5]])).toThrow(/nothing to hand over/);
    expect(() => zipChange([{ path: ZIP_NOTE, after: 'x' }])).toThrow(/cannot travel in the zip/);
  });
});
