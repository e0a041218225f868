import { describe, expect, it } from 'vitest';
import type { FormName } from '../../../src/core/types';
import { loadFormValidation } from '../../../src/web/form/validation';
import { maxLengths, requiredFields, ruleCases, validData, withPatch } from '../../core/form-rule-cases';

// The page's path: the precompiled validators (no compiler) + core fieldErrors.
const loaded: Record<FormName, Awaited<ReturnType<typeof loadFormValidation>>> = { simple: await loadFormValidation('simple'), extended: await loadFormValidation('extended') };

describe.each(['simple', 'extended'] as FormName[])('%s form, precompiled validator', (variant) => {
  const { validate } = loaded[variant];

  it('accepts a complete request', () => {
    expect(validate(validData(variant), 'nl')).toEqual({});
  });

  for (const rule of ruleCases.filter((c) => c.variants.includes(variant))) {
    it(rule.name, () => {
      expect(validate(withPatch(variant, rule.patch), 'nl')).toEqual(rule.expect[variant]);
    });
  }

  it('treats empty strings as missing', () => {
    expect(validate(withPatch(variant, { last_name: '' }), 'nl').last_name).toHaveLength(1);
  });

  it('reports every required field of an empty form', () => {
    const found = validate({ country: 'nl', ...(variant === 'extended' ? { language: 'nl' as const } : {}) }, 'nl');
    expect(Object.keys(found).sort()).toEqual([...requiredFields[variant]].sort());
  });

  it('keeps the required message of a photo quiet while it uploads', () => {
    expect(validate(withPatch(variant, { image1: undefined }), 'nl', ['image1'])).toEqual({});
  });

  it.each(maxLengths[variant])('%s: at most %i characters', (field, limit) => {
    expect(validate(withPatch(variant, { [field]: 'x'.repeat(limit), country: 'fr' }), 'nl')).toEqual({});
    expect(validate(withPatch(variant, { [field]: 'x'.repeat(limit + 1), country: 'fr' }), 'nl')[field]).toHaveLength(1);
  });

  it('French messages', () => {
    expect(validate(withPatch(variant, { house_number: 0 }), 'fr')).toEqual({ house_number: ['Nombre non valide'] });
  });
});
