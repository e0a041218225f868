import { describe, expect, it } from 'vitest';
import uri from '../../../src/web/form/same-document-uri';

describe('same-document URI resolution (fast-uri stand-in for rjsf)', () => {
  it('resolves a fragment against the base, as fast-uri does', () => {
    expect(uri.resolve('repair-request-simple', '#/definitions/text')).toBe('repair-request-simple#/definitions/text');
    expect(uri.resolve('repair-request-simple#/old', '#/new')).toBe('repair-request-simple#/new');
    expect(uri.equal('repair-request-simple#', 'repair-request-simple')).toBe(true);
    expect(uri.equal('a', 'b')).toBe(false);
  });

  it('refuses a reference to another document instead of guessing', () => {
    expect(() => uri.resolve('repair-request-simple', 'https://example.com/x.json')).toThrow(/refer only within themselves/);
  });
});
