import type { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { fieldErrors, type ValidationIssue } from '../../src/core/field-errors';
import { createRepairAjv } from '../../src/core/keywords/repair-ajv';
import { form, messages, portal } from '../support/portal-data';
import type { Locale, RepairFormData, FormName } from '../../src/core/types';
import { maxLengths, requiredFields, ruleCases, validData, withPatch } from './form-rule-cases';

// The server's path: the runtime ajv with the same options, formats and keyword code as the page build.
const aliases = { image1: 'upload_1', image2: 'upload_2' };
const ajv = createRepairAjv(portal.rules);
const compiled = Object.fromEntries(
  (['simple', 'extended'] as FormName[]).map((variant) => [variant, ajv.compile(form(variant).schema)]),
) as Record<FormName, ReturnType<Ajv['compile']>>;

function errorsOf(variant: FormName, data: RepairFormData, locale: Locale = 'nl') {
  const validate = compiled[variant];
  validate(data);
  return fieldErrors((validate.errors ?? []) as ValidationIssue[], messages(variant, locale), aliases);
}

describe.each(['simple', 'extended'] as FormName[])('%s form rules (runtime ajv + shared keywords)', (variant) => {
  it('accepts a complete request', () => {
    expect(errorsOf(variant, validData(variant))).toEqual({});
  });

  for (const rule of ruleCases.filter((c) => c.variants.includes(variant))) {
    it(rule.name, () => {
      expect(errorsOf(variant, withPatch(variant, rule.patch))).toEqual(rule.expect[variant]);
    });
  }

  it('reports every required field of an empty form on that field', () => {
    const found = errorsOf(variant, { country: 'nl', ...(variant === 'extended' ? { language: 'nl' } : {}) });
    expect(Object.keys(found).sort()).toEqual([...requiredFields[variant]].sort());
  });

  it.each(maxLengths[variant])('%s: at most %i characters', (field, limit) => {
    expect(errorsOf(variant, withPatch(variant, { [field]: 'x'.repeat(limit), country: 'fr' }))).toEqual({});
    const over = errorsOf(variant, withPatch(variant, { [field]: 'x'.repeat(limit + 1), country: 'fr' }));
    expect(over[field]).toEqual([variant === 'simple' ? `Maximaal ${limit} tekens toegestaan` : `At most ${limit} characters`]);
  });

  it('speaks French on French pages, except what the spec keeps', () => {
    const found = errorsOf(variant, withPatch(variant, { last_name: undefined, postal_code: '0000AA' }), 'fr');
    expect(found.last_name).toEqual(['Ce champ est obligatoire']);
    expect(found.postal_code).toEqual(['Code postal non valide']);
  });
});

describe('postalCode keyword', () => {
  it('re-checks the code when only the country changes', () => {
    const code = { postal_code: '1000' };
    expect(errorsOf('simple', withPatch('simple', { ...code, country: 'be' }))).toEqual({});
    expect(errorsOf('simple', withPatch('simple', { ...code, country: 'nl' }))).toEqual({ postal_code: ['Ongeldige postcode'] });
  });
});
