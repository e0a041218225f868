import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH, referenceFromBytes, storedReference } from '../../src/core/reference';

const SHAPE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

describe('short references', () => {
  it('are ten symbols without I, L, O or U, grouped 4-4-2', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(32);
    expect(REFERENCE_ALPHABET).not.toMatch(/[ILOU]/);
    expect(referenceFromBytes(new Uint8Array(REFERENCE_LENGTH))).toBe('0000-0000-00');
    expect(referenceFromBytes(Uint8Array.from([31, 30, 29, 28, 0, 1, 2, 3, 32, 255]))).toBe('ZYXW-0123-0Z');
    fc.assert(fc.property(fc.uint8Array({ minLength: REFERENCE_LENGTH, maxLength: REFERENCE_LENGTH }), (bytes) => SHAPE.test(referenceFromBytes(bytes))));
  });

  it('use every symbol alike (each byte picks one by its low five bits)', () => {
    const counts = new Map<string, number>();
    for (let b = 0; b < 256; b++) {
      const symbol = referenceFromBytes(new Uint8Array(REFERENCE_LENGTH).fill(b))[0];
      counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...REFERENCE_ALPHABET].sort().join(''));
    expect(new Set(counts.values())).toEqual(new Set([8]));
  });

  it('refuse too few random bytes', () => {
    expect(() => referenceFromBytes(new Uint8Array(4))).toThrow(RangeError);
  });
});

describe('storedReference: a reference as typed or read out', () => {
  it.each([
    ['K7QM-4XRT-9P', 'K7QM-4XRT-9P'],
    ['k7qm-4xrt-9p', 'K7QM-4XRT-9P'],
    ['k7qm 4xrt 9p', 'K7QM-4XRT-9P'],
    ['  K7QM4XRT9P\n', 'K7QM-4XRT-9P'],
    ['K7 QM – 4X RT – 9P', 'K7QM-4XRT-9P'],
    // Look-alikes: O is 0, I and L are 1, U is V.
    ['O0OI-1LUV-00', '0001-11VV-00'],
    ['aooi lluu zz', 'A001-11VV-ZZ'],
  ])('%j is %s', (typed, stored) => {
    expect(storedReference(typed)).toBe(stored);
  });

  it('keeps an older request’s UUID, in lower case', () => {
    expect(storedReference(' E705C7CA-AFF9-4990-98B5-D8463A2B8B85 ')).toBe('e705c7ca-aff9-4990-98b5-d8463a2b8b85');
    expect(storedReference('e705c7caaff9499098b5d8463a2b8b85')).toBe('e705c7ca-aff9-4990-98b5-d8463a2b8b85');
  });

  it('leaves anything else as typed (trimmed), to be found or not', () => {
    expect(storedReference(' NO-SUCH-REF ')).toBe('NO-SUCH-REF');
    expect(storedReference('K7QM-4XRT-9')).toBe('K7QM-4XRT-9');
    expect(storedReference('K7QM-4XRT-9P!')).toBe('K7QM-4XRT-9P!');
  });

  it('finds every reference again from its lower-case, ungrouped, spaced-out forms', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: REFERENCE_LENGTH, maxLength: REFERENCE_LENGTH }), (bytes) => {
        const reference = referenceFromBytes(bytes);
        const plain = reference.replace(/-/g, '');
        return [reference.toLowerCase(), plain, [...plain].join(' '), ` ${plain.toLowerCase()} `].every((typed) => storedReference(typed) === reference);
      }),
    );
  });
});
