import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8/lib/types.js';
import { fieldErrors, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formSchemas, type FormSchema, type UiSchema } from '../../core/form-schemas';
import type { Locale, RepairFormData, Variant } from '../../core/types';
import { validators as extendedValidators } from './generated/extended.validator';
import { validators as simpleValidators } from './generated/simple.validator';

const generated: Record<Variant, ValidatorFunctions> = {
  extended: extendedValidators as ValidatorFunctions,
  simple: simpleValidators as ValidatorFunctions,
};

export interface FormValidation {
  schema: FormSchema;
  uiSchema: UiSchema;
  /** rjsf's validator: the precompiled functions, no compiler at run time. */
  validator: ValidatorType<RepairFormData, RJSFSchema>;
  /** Hidden field → the visible field its errors show on (image1 → upload_1). */
  aliases: Record<string, string>;
  /** Fields in the order they are shown (sections of the root uiSchema). */
  fieldOrder: string[];
  /** Messages per field for the whole form; `pending` hides `required` of those fields (an upload still running). */
  validate(data: RepairFormData, locale: Locale, pending?: readonly string[]): FieldErrors;
}

interface Section {
  id: string;
  fields: string[];
}

export function sectionsOf(uiSchema: UiSchema): Section[] {
  return ((uiSchema['ui:options'] as { sections?: Section[] } | undefined)?.sections ?? []).slice();
}

function uploadAliases(uiSchema: UiSchema): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const [name, ui] of Object.entries(uiSchema)) {
    const entry = ui as { 'ui:field'?: string; 'ui:options'?: { target?: string } } | null;
    const target = entry?.['ui:options']?.target;
    if (entry?.['ui:field'] === 'photoUpload' && target) aliases[target] = name;
  }
  return aliases;
}

/** ajv sees absent values, not rjsf's `undefined` or empty strings. */
export function cleanData(data: RepairFormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

const cache = new Map<Variant, FormValidation>();

export function formValidation(variant: Variant): FormValidation {
  const known = cache.get(variant);
  if (known) return known;
  const { schema, uiSchema } = formSchemas[variant];
  const validator = createPrecompiledValidator<RepairFormData, RJSFSchema>(generated[variant], schema as RJSFSchema);
  const aliases = uploadAliases(uiSchema);
  const fieldOrder = sectionsOf(uiSchema).flatMap((s) => s.fields);
  const made: FormValidation = {
    schema,
    uiSchema,
    validator,
    aliases,
    fieldOrder,
    validate(data, locale, pending = []) {
      const { errors = [] } = validator.rawValidation<ValidationIssue>(schema as RJSFSchema, cleanData(data) as RepairFormData);
      const issues = errors.filter(
        (e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty))),
      );
      return fieldErrors(issues, variant, locale, aliases);
    },
  };
  cache.set(variant, made);
  return made;
}
