import type { ValidateFunction } from 'ajv';
import { brandIssues } from '../../core/brand-rule';
import { fieldErrors, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formSchemas, uploadAliases } from '../../core/form-schemas';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import type { Brand, Locale, RepairFormData, Variant } from '../../core/types';

/**
 * Judges a whole form, form-only fields included, as the page does before
 * it sends: the same schema, keywords and messages, errors of a hidden
 * photo target shown on its picker, the brand file's rule included. For
 * forms posted without scripts.
 */
export class FormDataValidator {
  private validators: Partial<Record<Variant, ValidateFunction>> = {};

  /** `pending` keeps `required` quiet for those fields (a photo received but not stored yet), as the page does. */
  errors(
    brand: Pick<Brand, 'name' | 'brandField' | 'variant'>,
    data: RepairFormData,
    locale: Locale,
    pending: readonly string[] = [],
  ): FieldErrors {
    const { variant } = brand;
    const validate = (this.validators[variant] ??= createRepairAjv().compile(formSchemas[variant].schema));
    const found = validate(data) ? [] : ((validate.errors ?? []) as ValidationIssue[]);
    // The brand's own rule (which names its form accepts), from its brand file, as on the page.
    const issues = [...found, ...brandIssues(brand, data)].filter(
      (e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty))),
    );
    return fieldErrors(issues, variant, locale, uploadAliases(formSchemas[variant].uiSchema));
  }
}
