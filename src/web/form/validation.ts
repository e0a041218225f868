import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
// One chunk per form: a page downloads only the form it shows (src/cli/vite/portal-data-modules.ts).
import formModules, { type FormModule } from 'virtual:portal-forms';
import { brandIssues, type BrandRules } from '../../core/brand-rule';
import { fieldErrors, messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formModel, type FormModel } from '../../core/form-model';
import type { Locale, RepairFormData, Variant } from '../../core/types';
import { languages } from '../i18n';
import { lazyCache } from '../lib/lazy-cache';

export interface FormValidation {
  /** The variant: its schema, uiSchema, and what they say of each field. */
  model: FormModel;
  /** rjsf's validator: the precompiled functions, no compiler at run time. */
  validator: ValidatorType<RepairFormData, RJSFSchema>;
  /**
   * Messages per field for the whole form; `pending` hides `required` of those fields (an upload still running);
   * `brand` adds its brand file's rules (brand name, country), as the server does; `found` are issues found
   * elsewhere (a photo the server refused), told in the same words.
   */
  validate(data: RepairFormData, locale: Locale, pending?: readonly string[], brand?: BrandRules, found?: readonly ValidationIssue[]): FieldErrors;
}

/** ajv sees absent values, not rjsf's `undefined` or empty strings. */
export function cleanData(data: RepairFormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

const cache = lazyCache<FormValidation>(async (variant) => {
  const load = Object.hasOwn(formModules, variant) ? formModules[variant] : undefined;
  if (!load) throw new Error(`the page was built without the ${variant} form`);
  return makeFormValidation(variant, await load());
});

/** The variant's validation, loading its chunk once. */
export function loadFormValidation(variant: Variant): Promise<FormValidation> {
  return cache.load(variant);
}

function makeFormValidation(variant: Variant, { validators, schema, uiSchema }: FormModule): FormValidation {
  const validator = createPrecompiledValidator<RepairFormData, RJSFSchema>(validators, schema as RJSFSchema);
  const model = formModel(variant, schema, uiSchema);
  return {
    model,
    validator,
    validate(data, locale, pending = [], brand, found = []) {
      const cleaned = cleanData(data);
      const { errors = [] } = validator.rawValidation<ValidationIssue>(schema as RJSFSchema, cleaned as RepairFormData);
      const issues = [
        ...errors.filter((e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty)))),
        ...(brand ? brandIssues(brand, model, cleaned) : []),
        ...found,
      ];
      return fieldErrors(issues, messageTable(languages, variant, locale), model.aliases);
    },
  };
}
