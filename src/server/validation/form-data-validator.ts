import type { ValidateFunction } from 'ajv';
import { brandIssues } from '../../core/brand-rule';
import { fieldErrors, messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import type { Brand, Locale, RepairFormData } from '../../core/types';
import type { PortalData } from '../portal-data';
import { compileForms, formOf } from './request-validator';

/**
 * Judges a whole form, form-only fields included, as the page does before
 * it sends: the same schema, keywords and messages, errors of a hidden
 * photo target shown on its picker, the brand file's rules included. For
 * forms posted without scripts.
 */
export class FormDataValidator {
  /** `validators`: compileForms(data), shared by the server's validators. */
  constructor(
    private readonly data: Pick<PortalData, 'forms' | 'languages' | 'rules'>,
    private readonly validators: ReadonlyMap<string, ValidateFunction> = compileForms(data),
  ) {}

  /** `pending` keeps `required` quiet for those fields (a photo received but not stored yet), as the page does. */
  errors(
    brand: Pick<Brand, 'id' | 'name' | 'brandField' | 'variant' | 'countries' | 'locales'>,
    data: RepairFormData,
    locale: Locale,
    pending: readonly string[] = [],
  ): FieldErrors {
    const model = formOf(this.data, brand);
    const validate = this.validators.get(brand.variant)!;
    const found = validate(data) ? [] : ((validate.errors ?? []) as ValidationIssue[]);
    // The brand's own rules (which names and countries its form accepts), from its brand file, as on the page.
    const issues = [...found, ...brandIssues(brand, model, data)].filter(
      (e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty))),
    );
    return fieldErrors(issues, messageTable(this.data.languages, brand.variant, locale), model.aliases);
  }
}
