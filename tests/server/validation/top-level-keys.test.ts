import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topLevelKeys } from '../../../src/server/validation/top-level-keys';

/** JSON values of any shape, keys of any text (quotes, backslashes, escapes, braces, commas in them). */
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('json'), { maxKeys: 4 }),
  ),
})).json;

describe('topLevelKeys', () => {
  it('counts and names the keys of any object as JSON.parse reads them, however it is spaced', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), value, { maxKeys: 30 }), fc.integer({ min: 0, max: 4 }), (object, indent) => {
        const text = JSON.stringify(object, null, indent);
        const keys = Object.keys(JSON.parse(text) as object);
        expect(topLevelKeys(text, 1000, 1000)).toEqual({ count: keys.length, first: keys });
      }),
    );
  });

  it('stops counting past the limit and keeps only the first keys asked for', () => {
    const object = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, { nested: [i, `"${i}"`, { k: i }] }]));
    expect(topLevelKeys(JSON.stringify(object), 40, 3)).toEqual({ count: 41, first: ['k0', 'k1', 'k2'] });
  });

  it('is undefined for a text that is not an object, and reads a broken one as far as it goes', () => {
    for (const text of ['[1,2]', '"x"', '12', '', '  null']) expect(topLevelKeys(text, 10, 10)).toBeUndefined();
    expect(topLevelKeys('{"a": 1, "b": "unterminated', 10, 10)).toEqual({ count: 2, first: ['a', 'b'] });
  });
});
