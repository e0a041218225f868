import type { ValidateFunction } from 'ajv';
import { messageTable, type FieldErrors } from '../../core/field-errors';
import { judgeForm } from '../../core/form-judge';
import type { Brand, Locale, RepairFormData } from '../../core/types';
import type { PortalData } from '../portal-data';
import { compileForms, formOf, schemaCheck } from './request-validator';

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
    brand: Pick<Brand, 'id' | 'name' | 'brandField' | 'form' | 'countries' | 'locales'>,
    data: RepairFormData,
    locale: Locale,
    pending: readonly string[] = [],
  ): FieldErrors {
    const model = formOf(this.data, brand);
    // The brand's own rules (which names and countries its form accepts), from its brand file, as on the page.
    return judgeForm(model, schemaCheck(this.validators.get(brand.form)!), data, messageTable(this.data.languages, brand.form, locale), { pending, brand });
  }
}
