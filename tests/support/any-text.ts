import fc from 'fast-check';

/**
 * Strings of any code points, lone surrogates included: what fast-check's
 * `unit: 'binary'` gives, without its first-use cost (about 1 s per test
 * worker on an idle 2-core machine, past Vitest's 5 s once the machine is
 * loaded, in a test of a pure function).
 */
export function anyText(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: fc.nat(0x10ffff).map((code) => String.fromCodePoint(code)), ...constraints });
}
