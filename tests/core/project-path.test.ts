/**
 * Project paths are worked out without node:path, so that the studio can run the checks in a browser;
 * the CLI printed node:path's answers before, so the two must agree on every path, those that lead out
 * of the project (BRANDS_DIR beside it, a $schema written as an absolute path) included.
 */
import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inMemoryFiles } from '../../src/core/project-files';
import { basenameOf, dirnameOf, extnameOf, joinPath, relativePath, resolvePath } from '../../src/core/project-path';

const ROOT = '/home/owner/portal';
const segment = fc.constantFrom('brands', 'schemas', 'assets', 'acme.json', '.json', 'logo.svg', 'a.b.c', '.', '..', 'owner', 'portal', 'home');
const path = fc.array(segment, { maxLength: 6 }).map((segments) => segments.join('/'));
/** A project path as the adapters give it: normalized, relative to the project (may start with ../). */
const projectPath = path.map((p) => posix.relative(ROOT, posix.resolve(ROOT, p)));

describe('project paths agree with node:path', () => {
  it('relativePath: from one folder to a file, both project paths, the project at ROOT', () => {
    fc.assert(
      fc.property(projectPath, projectPath, (from, to) => {
        expect(relativePath(from, to, ROOT)).toBe(posix.relative(posix.join(ROOT, from), posix.join(ROOT, to)));
      }),
    );
  });

  it('resolvePath: a reference written in a folder, relative or absolute, as a project path', () => {
    const ref = fc.oneof(path, path.map((p) => `/${p}`));
    fc.assert(
      fc.property(projectPath, ref, (from, written) => {
        expect(resolvePath(from, written, ROOT)).toBe(posix.relative(ROOT, posix.resolve(ROOT, from, written)));
      }),
    );
  });

  it('joinPath, dirnameOf, basenameOf and extnameOf', () => {
    // What the checks join to a folder: names found in it, or written after it (forms, i18n/nl.json), none of them "..".
    const names = fc.array(fc.constantFrom('brands', 'schemas', 'assets', 'acme.json', '.json', 'logo.svg', 'a.b.c', '.'), { maxLength: 3 }).map((n) => n.join('/'));
    fc.assert(
      fc.property(projectPath, names, (dir, name) => {
        const joined = joinPath(dir, name);
        expect(joined).toBe(posix.relative(ROOT, posix.join(ROOT, dir, name)));
        if (joined === '' || joined.split('/').at(-1) === '..') return;
        // As the checks asked node:path before: of the file's absolute path.
        const onDisk = posix.join(ROOT, joined);
        expect(dirnameOf(joined)).toBe(posix.relative(ROOT, posix.dirname(onDisk)));
        expect(basenameOf(joined, '.json')).toBe(posix.basename(onDisk, '.json'));
        expect(extnameOf(joined)).toBe(posix.extname(onDisk));
      }),
    );
  });

  it('without a place on disk (the browser), a path that leaves the project says so', () => {
    expect(relativePath('brands', 'schemas/brand.schema.json')).toBe('../schemas/brand.schema.json');
    expect(resolvePath('brands', '../schemas/./brand.schema.json')).toBe('schemas/brand.schema.json');
    expect(resolvePath('brands', '/schemas/brand.schema.json')).toBe('../schemas/brand.schema.json');
  });
});

describe('inMemoryFiles', () => {
  const files = inMemoryFiles({ 'brands/acme.json': '\uFEFF{}', 'brands/assets/acme-logo.svg': new TextEncoder().encode('<svg/>'), 'schemas/i18n/nl.json': '{}' });

  it('lists a folder (its files and folders, sorted) and reads text and bytes, a byte-order mark kept', () => {
    expect(files.list('brands')).toEqual(['acme.json', 'assets']);
    expect(files.list('')).toEqual(['brands', 'schemas']);
    expect(files.list('nowhere')).toEqual([]);
    expect(files.text('brands/acme.json')).toBe('\uFEFF{}');
    expect(files.text('brands/./assets/acme-logo.svg')).toBe('<svg/>');
    expect(files.bytes('brands/acme.json')).toEqual(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(files.isFile('brands/assets')).toBe(false);
    expect(files.text('brands/missing.json')).toBeUndefined();
  });
});
