import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8/lib/types.js';
import { brandIssues, type BrandRules } from '../../core/brand-rule';
import { fieldErrors, messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formModel, type FormModel } from '../../core/form-model';
import type { FormSchema, UiSchema } from '../../core/form-schema';
import type { Locale, RepairFormData, Variant } from '../../core/types';
import { languages } from '../i18n';
import { lazyCache } from '../lib/lazy-cache';

/** A generated variant module (src/cli/compile-validators.ts): validator, assembled schema and uiSchema. */
interface VariantModule {
  validators: ValidatorFunctions;
  schema: FormSchema;
  uiSchema: UiSchema;
}

// One chunk per variant: a page downloads only the form it shows.
const variantModules = import.meta.glob<VariantModule>('./generated/*.validator.ts');

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
  const load = variantModules[`./generated/${variant}.validator.ts`];
  if (!load) throw new Error(`no generated validator for the ${variant} form: run npm run build:validators`);
  return makeFormValidation(variant, await load());
});

/** The variant's validation, loading its chunk once. */
export function loadFormValidation(variant: Variant): Promise<FormValidation> {
  return cache.load(variant);
}

function makeFormValidation(variant: Variant, { validators, schema, uiSchema }: VariantModule): FormValidation {
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
