/**
 * The `{{name}}` placeholders of every text of the mails, as a brand owner
 * writes them in a language file: filled with the request's values, the same
 * text filled for one request after another.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillText } from '../../src/core/texts';

describe('fillText', () => {
  it('fills each placeholder, spaces inside the braces or not, and leaves what is no placeholder', () => {
    expect(fillText('Aanvraag {{reference}} – {{ brand }} – {{postal_code}} {{city}}', { reference: 'AB12', brand: 'Ilve', postal_code: '1234 AB', city: 'Utrecht' })).toBe(
      'Aanvraag AB12 – Ilve – 1234 AB Utrecht',
    );
    expect(fillText('{{brand}}{{brand}}', { brand: 'Teka' })).toBe('TekaTeka');
    expect(fillText('{{ not closed, {brand}, {{two words}}', { brand: 'x' })).toBe('{{ not closed, {brand}, {{two words}}');
  });

  it('leaves a missing or empty value empty, and writes 0 and false as they are', () => {
    expect(fillText('[{{a}}|{{b}}|{{c}}|{{d}}|{{e}}]', { b: null, c: 0, d: false, e: '' })).toBe('[||0|false|]');
    // Only the values' own fields: a placeholder named after an Object method is no value.
    expect(fillText('{{toString}}{{constructor}}', {})).toBe('');
  });

  it('fills a value as it is: placeholders typed into a field are not filled in turn', () => {
    expect(fillText('Klacht: {{complaint}}', { complaint: '{{brand}} $& $1', brand: 'Ilve' })).toBe('Klacht: {{brand}} $& $1');
  });

  it('fills the same text for one request after another with each request’s own values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('{{')), fc.constantFrom('brand', 'reference', 'city')), { maxLength: 6 }),
        fc.array(fc.record({ brand: fc.string(), reference: fc.string(), city: fc.string() }), { minLength: 1, maxLength: 4 }),
        (pieces, requests) => {
          const template = pieces.map(([text, name]) => `${text}{{${name}}}`).join('');
          for (const values of requests) {
            expect(fillText(template, values)).toBe(pieces.map(([text, name]) => text + values[name]).join(''));
          }
        },
      ),
    );
  });
});
