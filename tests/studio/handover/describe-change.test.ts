import { describe, expect, it } from 'vitest';
import { describeChange, type FileChange } from '../../../src/studio/handover/index.ts';

const brand = (id: string, name: string) => `{ "id": "${id}", "name": "${name}" }\n`;
const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const newPelgrim: FileChange[] = [
  { path: 'schemas/i18n/de.json', after: '{}' },
  { path: 'brands/assets/pelgrim-favicon.svg', after: svg },
  { path: 'brands/pelgrim.json', after: brand('pelgrim', 'Pelgrim') },
  { path: 'brands/assets/pelgrim-logo.png', after: png },
];

describe('describeChange', () => {
  it('says in plain words what a new brand with its logo, favicon and a new language adds, and lists every file', () => {
    expect(describeChange(newPelgrim)).toEqual({
      subject: 'Add brand Pelgrim (brands/pelgrim.json, logo, favicon) and German texts (schemas/i18n/de.json)',
      body: [
        'Made in the brand studio.',
        '',
        '- brands/assets/pelgrim-favicon.svg: new',
        '- brands/assets/pelgrim-logo.png: new',
        '- brands/pelgrim.json: new',
        '- schemas/i18n/de.json: new',
      ].join('\n'),
    });
  });

  it('reads the same whatever order the files come in', () => {
    expect(describeChange([...newPelgrim].reverse())).toEqual(describeChange(newPelgrim));
  });

  it('puts additions, changes and removals in that order, each verb once', () => {
    const changes: FileChange[] = [
      { path: 'brands/old.json', before: brand('old', 'Oude Merk') },
      { path: 'schemas/i18n/fr.json', before: '{}', after: '{ "a": 1 }' },
      { path: 'schemas/i18n/nl.json', before: '{}', after: '{}' },
      { path: 'brands/new.json', after: brand('new', 'Nieuw') },
    ];
    expect(describeChange(changes).subject).toBe('Add brand Nieuw (brands/new.json); change French texts (schemas/i18n/fr.json); remove brand Oude Merk (brands/old.json)');
  });

  it('names a brand by id where only its logo changes, and a logo that changed type once', () => {
    expect(describeChange([{ path: 'brands/assets/teka-logo.svg', before: svg, after: `${svg}\n` }]).subject).toBe(
      'Change brand teka (brands/assets/teka-logo.svg)',
    );
    const toPng: FileChange[] = [
      { path: 'brands/teka.json', before: brand('teka', 'Teka'), after: brand('teka', 'Teka').replace('}', ', "logo": "assets/teka-logo.png" }') },
      { path: 'brands/assets/teka-logo.svg', before: svg },
      { path: 'brands/assets/teka-logo.png', after: png },
    ];
    expect(describeChange(toPng).subject).toBe('Change brand Teka (brands/teka.json, logo)');
  });

  it('names forms, the shared fields, the countries and other files, and a brand file it cannot read by its id', () => {
    const changes: FileChange[] = [
      { path: 'schemas/countries.json', before: '{}', after: '{ }' },
      { path: 'docs/adding-a-brand.md', before: '# a', after: '# b' },
      { path: 'schemas/forms/extended.ui.json', before: '{}', after: '{ }' },
      { path: 'schemas/forms/extended.schema.json', before: '{}', after: '{ }' },
      { path: 'schemas/forms/fields.json', before: '{}', after: '{ }' },
      { path: 'brands/broken.json', after: '{ "name": ' },
    ];
    // Past 120 characters the file names go; the body still lists them.
    expect(describeChange(changes).subject).toBe(
      'Add brand broken; change form extended, the fields the forms share, the list of countries and docs/adding-a-brand.md',
    );
    expect(describeChange(changes.slice(2, 4)).subject).toBe(
      'Change form extended (schemas/forms/extended.schema.json, schemas/forms/extended.ui.json)',
    );
  });

  it('keeps a long subject short: first without file names, then its first part and a count', () => {
    const three = ['a', 'b', 'c'].map((id): FileChange => ({ path: `brands/${id}.json`, after: brand(id, `Merk ${id.toUpperCase()} met een lange naam`) }));
    expect(describeChange(three).subject).toBe('Add brand Merk A met een lange naam, brand Merk B met een lange naam and brand Merk C met een lange naam');
    const many = 'abcdefgh'.split('').map((id): FileChange => ({ path: `brands/${id}.json`, after: brand(id, `Merk ${id.toUpperCase()} met een lange naam`) }));
    expect(describeChange(many).subject).toBe('Add brand Merk A met een lange naam and 7 more changes');
  });

  it('refuses a change that changes nothing', () => {
    expect(() => describeChange([{ path: 'brands/teka.json', before: '{}', after: '{}' }])).toThrow(/nothing to hand over/);
  });
});
