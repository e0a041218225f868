import type { ValidateFunction } from 'ajv';
import { requestBrandIssues } from '../../core/brand-rule';
import { fieldErrors, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formSchemas } from '../../core/form-schemas';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import type { Brand, Locale, RepairRequest, Variant } from '../../core/types';

export type Verdict = { ok: true; request: RepairRequest } | { ok: false; error: string; fields: FieldErrors };

/**
 * Judges a submitted body exactly as the page does: the variant's schema,
 * the shared keywords and ajv options (no coercion, no removal). Form-only
 * properties are refused outright: the page strips them, so their presence
 * means the body did not come from the form. The brand's own rule (which
 * brand names its form accepts, and that a brand the form fixes is sent)
 * comes from its brand file, as on the page.
 */
export class RequestValidator {
  private readonly validators: Record<Variant, ValidateFunction>;

  constructor() {
    const ajv = createRepairAjv();
    this.validators = {
      extended: ajv.compile(formSchemas.extended.schema),
      simple: ajv.compile(formSchemas.simple.schema),
    };
  }

  check(brand: Pick<Brand, 'name' | 'brandField' | 'variant'>, body: unknown, locale: Locale): Verdict {
    const { variant } = brand;
    const properties = formSchemas[variant].schema.properties;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const formOnly: ValidationIssue[] = Object.keys(body)
        .filter((name) => properties[name]?.formOnly)
        .map((name) => ({ keyword: 'formOnly', instancePath: `/${name}`, params: {} }));
      if (formOnly.length > 0) {
        return { ok: false, error: 'Form-only fields must not be sent.', fields: fieldErrors(formOnly, variant, locale) };
      }
    }
    const validate = this.validators[variant];
    const issues = [...(validate(body) ? [] : (validate.errors ?? [])), ...requestBrandIssues(brand, body)];
    if (issues.length === 0) return { ok: true, request: body as RepairRequest };
    return { ok: false, error: 'Some fields are not filled in correctly.', fields: fieldErrors(issues, variant, locale) };
  }
}
