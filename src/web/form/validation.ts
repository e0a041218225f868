import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8/lib/types.js';
import { brandIssues } from '../../core/brand-rule';
import { fieldErrors, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { uploadAliases, type FormSchema, type UiSchema } from '../../core/form-schema';
import type { Brand, Locale, RepairFormData, Variant } from '../../core/types';
import { lazyCache } from '../lib/lazy-cache';

/** A generated variant module (src/cli/compile-validators.ts): validator, schema and uiSchema. */
interface VariantModule {
  validators: ValidatorFunctions;
  schema: FormSchema;
  uiSchema: UiSchema;
}

// One chunk per variant: a page downloads only the form it shows.
const variantModules = import.meta.glob<VariantModule>('./generated/*.validator.ts');

export interface FormValidation {
  schema: FormSchema;
  uiSchema: UiSchema;
  /** rjsf's validator: the precompiled functions, no compiler at run time. */
  validator: ValidatorType<RepairFormData, RJSFSchema>;
  /** Hidden field → the visible field its errors show on (image1 → upload_1). */
  aliases: Record<string, string>;
  /** Fields in the order they are shown (sections of the root uiSchema). */
  fieldOrder: string[];
  /**
   * Messages per field for the whole form; `pending` hides `required` of those fields (an upload still running);
   * `brand` adds its brand file's rule on the brand name, as the server does.
   */
  validate(data: RepairFormData, locale: Locale, pending?: readonly string[], brand?: Pick<Brand, 'name' | 'brandField'>): FieldErrors;
}

interface Section {
  id: string;
  fields: string[];
}

export function sectionsOf(uiSchema: UiSchema): Section[] {
  return ((uiSchema['ui:options'] as { sections?: Section[] } | undefined)?.sections ?? []).slice();
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
  return makeFormValidation(variant as Variant, await load());
});

/** The variant's validation, loading its chunk once. */
export function loadFormValidation(variant: Variant): Promise<FormValidation> {
  return cache.load(variant);
}

function makeFormValidation(variant: Variant, { validators, schema, uiSchema }: VariantModule): FormValidation {
  const validator = createPrecompiledValidator<RepairFormData, RJSFSchema>(validators, schema as RJSFSchema);
  const aliases = uploadAliases(uiSchema);
  const fieldOrder = sectionsOf(uiSchema).flatMap((s) => s.fields);
  return {
    schema,
    uiSchema,
    validator,
    aliases,
    fieldOrder,
    validate(data, locale, pending = [], brand) {
      const cleaned = cleanData(data);
      const { errors = [] } = validator.rawValidation<ValidationIssue>(schema as RJSFSchema, cleaned as RepairFormData);
      const issues = [
        ...errors.filter((e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty)))),
        ...(brand ? brandIssues(brand, cleaned) : []),
      ];
      return fieldErrors(issues, variant, locale, aliases);
    },
  };
}
