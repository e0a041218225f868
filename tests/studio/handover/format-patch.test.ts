import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatPatch, HandoverError, type ChangeMessage, type FileChange } from '../../../src/studio/handover/index.ts';
import { git, gitTry, readBytes, repoWith, tempFolder, trackedFiles } from './support/git.ts';
import { noisyPng } from './support/png.ts';

const folders: { remove: () => void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

/** `git am` of the patch in a repository holding `base`; the repository's folder and what am said. */
function applied(base: Record<string, string | Uint8Array>, patch: string): { dir: string; am: { ok: boolean; output: string } } {
  const folder = tempFolder('studio-am');
  folders.push(folder);
  const dir = join(folder.path, 'project');
  mkdirSync(dir);
  repoWith(dir, base);
  writeFileSync(join(folder.path, 'change.patch'), patch);
  return { dir, am: gitTry(dir, ['am', join(folder.path, 'change.patch')]) };
}

/** The base's files after the changes: what the tree must hold, byte for byte. */
function expectTreeAfter(dir: string, base: Record<string, string | Uint8Array>, changes: FileChange[]): void {
  const expected = new Map<string, Uint8Array>(Object.entries(base).map(([path, content]) => [path, bytes(content)]));
  for (const change of changes) {
    if (change.after === undefined) expected.delete(change.path);
    else expected.set(change.path, bytes(change.after));
  }
  expect(trackedFiles(dir)).toEqual([...expected.keys()].sort());
  for (const [path, content] of expected) expect(readBytes(dir, path), path).toEqual(content);
  expect(git(dir, ['status', '--porcelain'])).toBe('');
}

const bytes = (content: string | Uint8Array) => (typeof content === 'string' ? new TextEncoder().encode(content) : content);

const longBrand = JSON.stringify({ id: 'teka', name: 'Teka', items: Array.from({ length: 60 }, (_, i) => `regel ${i}`) }, null, 2) + '\n';
const message: ChangeMessage = {
  subject: 'Add brand Pelgrim (brands/pelgrim.json, logo) and German texts (schemas/i18n/de.json)',
  body: 'Made in the brand studio.\n\n- brands/pelgrim.json: new\n- schemas/i18n/de.json: new',
  author: { name: 'Marketing Pelgrim', email: 'marketing@pelgrim.example' },
  date: new Date('2026-03-04T10:20:30Z'),
};

describe('formatPatch: git am applies it as one commit', () => {
  let base: Record<string, string | Uint8Array>;
  let changes: FileChange[];

  beforeAll(async () => {
    base = {
      'brands/teka.json': longBrand,
      'schemas/i18n/fr.json': '{\n  "page": {\n    "heading": "Demander une réparation"\n  }\n}',
      'schemas/forms/windows.ui.json': '{\r\n  "a": 1,\r\n  "b": 2\r\n}\r\n',
      'brands/assets/teka-logo.png': await noisyPng(24, 1),
      'brands/assets/teka-favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
      'schemas/i18n/nl.json': '{ "page": { "heading": "Reparatie aanvragen" } }\n',
    };
    changes = [
      { path: 'brands/teka.json', before: longBrand, after: longBrand.replace('"regel 30",', '"regel 30 — gewijzigd",\n    "regel 30b",').replace('"regel 31",\n', '') },
      { path: 'schemas/i18n/fr.json', before: base['schemas/i18n/fr.json'], after: '{\n  "page": {\n    "heading": "Demander une réparation à l’atelier"\n  }\n}' },
      { path: 'schemas/forms/windows.ui.json', before: base['schemas/forms/windows.ui.json'], after: '{\r\n  "a": 1,\r\n  "b": 3\r\n}\r\n' },
      { path: 'schemas/i18n/nl.json', before: base['schemas/i18n/nl.json'], after: base['schemas/i18n/nl.json'] },
      { path: 'brands/pelgrim.json', after: '{\n  "id": "pelgrim",\n  "name": "Pelgrim"\n}\n' },
      { path: 'schemas/i18n/de.json', after: '{ "page": { "heading": "Größe ändern 🔧", "nl": "één" } }' },
      { path: 'docs/brands/pelgrim/notes.md', after: '# Pelgrim\n\nNieuw merk.\n' },
      { path: 'docs/brands/pelgrim/empty.txt', after: '' },
      { path: 'brands/assets/pelgrim-logo.png', after: await noisyPng(32, 2) },
      { path: 'brands/assets/teka-logo.png', before: base['brands/assets/teka-logo.png'], after: await noisyPng(24, 3) },
      { path: 'brands/assets/teka-favicon.svg', before: base['brands/assets/teka-favicon.svg'] },
    ];
  });

  it('gives every changed, new and deleted file its after bytes: text, text without a last newline, CRLF, unicode, PNG', () => {
    const { dir, am } = applied(base, formatPatch(changes, message));
    expect(am.output).not.toMatch(/warning|error/i);
    expect(am.ok).toBe(true);
    expectTreeAfter(dir, base, changes);
    expect(git(dir, ['rev-list', '--count', 'HEAD'])).toBe('2\n');
  });

  it('records the subject, body, author and date as given', () => {
    const { dir } = applied(base, formatPatch(changes, message));
    expect(git(dir, ['log', '-1', '--format=%s%n%b'])).toBe(`${message.subject}\n${message.body}\n\n`);
    expect(git(dir, ['log', '-1', '--format=%an|%ae|%aI'])).toBe('Marketing Pelgrim|marketing@pelgrim.example|2026-03-04T10:20:30+00:00\n');
  });

  it('carries a subject and author name beyond ASCII, long enough to fold, through the mail headers', () => {
    const subject = 'Wijzig merk Pelgrim: één nieuw logo, Größe ändern en de Franse teksten voor België — klaar ✓ 🔧';
    const author = { name: 'Zoë Ångström, jr.', email: 'zoe@pelgrim.example' };
    const patch = formatPatch(changes, { ...message, subject, body: 'Één regel.\n\n\n\nNog één,   \nmet spaties.  ', author });
    expect(patch.split('\n\n')[0]).toMatch(/^Subject: \[PATCH\] =\?UTF-8\?q\?.*\n =\?UTF-8\?q\?/m);
    const { dir } = applied(base, patch);
    // git trims a name's closing dot (ident.c); the studio does so too, so a pull request names the same person.
    expect(git(dir, ['log', '-1', '--format=%s%n%b%n%an'])).toBe(`${subject}\nÉén regel.\n\nNog één,\nmet spaties.\n\nZoë Ångström, jr\n`);
  });

  it('is the same text for the same change', () => {
    expect(formatPatch(changes, message)).toBe(formatPatch([...changes].reverse(), message));
  });

  it('marks a binary file with its full blob ids, as git apply requires', () => {
    const patch = formatPatch(changes, message);
    const section = patch.slice(patch.indexOf('diff --git a/brands/assets/pelgrim-logo.png'));
    expect(section).toMatch(/^diff --git .*\nnew file mode 100644\nindex 0{40}\.\.[0-9a-f]{40}\nGIT binary patch\nliteral \d+\n/);
    const { dir } = applied(base, patch);
    expect(git(dir, ['rev-parse', 'HEAD:brands/assets/pelgrim-logo.png'])).toBe(`${section.match(/index 0{40}\.\.([0-9a-f]{40})/)![1]}\n`);
  });

  it('does not apply to a project whose file moved on since the studio was built', () => {
    const moved = { ...base, 'brands/teka.json': longBrand.replace('"regel 30",', '"regel 30 (elders gewijzigd)",') };
    const { dir, am } = applied(moved, formatPatch(changes, message));
    expect(am.ok).toBe(false);
    expect(am.output).toMatch(/patch failed: brands\/teka\.json|does not apply/);
    expect(existsSync(join(dir, 'brands/pelgrim.json'))).toBe(false);
  });
});

describe('formatPatch: what it refuses, in plain words', () => {
  const one: FileChange[] = [{ path: 'brands/pelgrim.json', after: '{}\n' }];

  it.each([
    ['a path with a space', [{ path: 'brands/pel grim.json', after: '{}' }], message, /"brands\/pel grim.json" cannot be handed over/],
    ['a path out of the project', [{ path: '../etc/passwd', after: 'x' }], message, /cannot be handed over/],
    ['a path into .git', [{ path: '.git/config', after: 'x' }], message, /cannot be handed over/],
    ['a path named twice', [...one, ...one], message, /named twice/],
    ['a change that changes nothing', [{ path: 'brands/teka.json', before: 'x', after: 'x' }], message, /nothing to hand over/],
    ['a subject git am would shorten', one, { ...message, subject: '[Pelgrim] new logo' }, /may not start with "\[", ":" or "Re:"/],
    ['a body line read as the diff', one, { ...message, body: 'Notes\n---\nmore' }, /Line 2 of the message, "---", would be read as the start of the file changes/],
    ['a body line read as a new mail', one, { ...message, body: 'From the desk: fine' }, /would be read as the start of another mail/],
    ['a body starting with a header', one, { ...message, body: 'Subject: other' }, /may not start with "From:", "Subject:" or "Date:"/],
    ['an author name with a line break', one, { ...message, author: { name: 'A\nB', email: 'a@b.example' } }, /author's name/],
    ['an invalid e-mail address', one, { ...message, author: { name: 'A', email: 'not an address' } }, /not an e-mail address/],
    ['an invalid date', one, { ...message, date: new Date('never') }, /no valid date/],
  ] as const)('refuses %s', (_, refused, msg, words) => {
    expect(() => formatPatch([...refused], msg)).toThrow(HandoverError);
    expect(() => formatPatch([...refused], msg)).toThrow(words);
  });
});
