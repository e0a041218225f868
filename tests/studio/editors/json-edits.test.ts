import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editedText, setAt } from '../../../src/studio/editors/json-edits';

const BRAND = `{
  "$schema": "../schemas/brand.schema.json",
  "id": "acme",
  "name": "Acme",
  "countries": ["be", "nl"],
  "theme": {
    "primary": "#1d4f73",
    "onPrimary": "#ffffff"
  },
  "header": { "title": { "nl": "Reparatie", "fr": "Réparation" }, "languageSwitch": true }
}
`;

describe('a change made in the fields rewrites only what changed in the JSON text', () => {
  it('one value: the rest of the file keeps its spacing, order and short lists', () => {
    const before = JSON.parse(BRAND);
    const after = { ...before, theme: { ...before.theme, primary: '#5a2d82' } };
    const text = editedText(BRAND, before, after);
    expect(text).toBe(BRAND.replace('"primary": "#1d4f73"', '"primary": "#5a2d82"'));
  });

  it('a removed value goes, a new one is added, a list is replaced whole', () => {
    const before = JSON.parse(BRAND);
    const { name: _name, ...rest } = before;
    const after = { ...rest, countries: ['be', 'nl', 'lu'], locales: ['nl', 'fr', 'de'] };
    const text = editedText(BRAND, before, after);
    expect(JSON.parse(text)).toEqual(after);
    expect(text).not.toContain('"name"');
    expect(text).toContain('"header": { "title": { "nl": "Reparatie", "fr": "Réparation" }, "languageSwitch": true }');
  });

  it('setAt writes one text into a nested place that did not exist', () => {
    const text = setAt('{\n  "language": { "name": "Deutsch" }\n}\n', ['form', 'submit'], 'Senden');
    expect(JSON.parse(text)).toEqual({ language: { name: 'Deutsch' }, form: { submit: 'Senden' } });
  });

  it('for any change of any JSON object, the text parses to exactly the new data', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const object = fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__'), value, { maxKeys: 6 });
    fc.assert(
      fc.property(object, object, (before, after) => {
        const text = `${JSON.stringify(before, null, 2)}\n`;
        expect(JSON.parse(editedText(text, JSON.parse(text), after))).toEqual(JSON.parse(JSON.stringify(after)));
      }),
      { numRuns: 300 },
    );
  });
});
