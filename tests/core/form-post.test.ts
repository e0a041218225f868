import { describe, expect, it } from 'vitest';
import { postedFormData, postedProperty } from '../../src/core/form-post';
import { form } from '../support/portal-data';

const { schema } = form('extended');

describe('a form posted without scripts, read as the page holds it', () => {
  it('maps controls to schema properties and ignores everything else', () => {
    expect(postedProperty('root_last_name', schema)).toBe('last_name');
    expect(postedProperty('root_toString', schema)).toBeUndefined();
    expect(postedProperty('last_name', schema)).toBeUndefined();
    expect(postedProperty('submission', schema)).toBeUndefined();
  });

  it('empty is absent, numbers are numbers, a ticked box is true, text stays text', () => {
    const data = postedFormData(
      [
        ['root_last_name', 'Jansen'],
        ['root_house_number_suffix', ''],
        ['root_house_number', '12'],
        ['root_isAkkoord', 'on'],
        ['root_upload_1', 'x'],
        ['root_postal_code', ' 1000 '],
        ['submission', 'key'],
        ['root_unknown', 'x'],
      ],
      schema,
    );
    expect(data).toEqual({ last_name: 'Jansen', house_number: 12, isAkkoord: true, postal_code: ' 1000 ' });
  });

  it('a number field with letters stays text, for the rules to refuse', () => {
    expect(postedFormData([['root_house_number', '12a']], schema)).toEqual({ house_number: '12a' });
    expect(postedFormData([['root_house_number', ' ']], schema)).toEqual({ house_number: ' ' });
  });

  // Number() reads hex, binary, octal, exponents, signs and spaces; a house number is typed in decimal digits.
  it.each(['0x10', '0b11', '0o17', '1e3', '+12', '-5', '12.0', ' 12', '12 ', 'Infinity', '١٢', '１２'])(
    'a number field of %j stays text, for the rules to refuse',
    (typed) => {
      expect(postedFormData([['root_house_number', typed]], schema)).toEqual({ house_number: typed });
    },
  );

  it('decimal digits are a number, leading zeros too', () => {
    expect(postedFormData([['root_house_number', '007']], schema)).toEqual({ house_number: 7 });
  });
});
