import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { createContext } from 'react';
// One chunk per form: a page downloads only the form it shows (src/cli/vite/portal-data-modules.ts).
import formModules, { type FormModule } from 'virtual:portal-forms';
import type { BrandRules } from '../../core/brand-rule';
import { messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { judgeForm } from '../../core/form-judge';
import { formModel, type FormModel } from '../../core/form-model';
import type { FormSchema, UiSchema } from '../../core/form-schema';
import type { Languages } from '../../core/texts';
import type { Locale, RepairFormData, FormName } from '../../core/types';
import { languages } from '../i18n';
import { lazyCache } from '../lib/lazy-cache';

export interface FormValidation {
  /** The form: its schema, uiSchema, and what they say of each field. */
  model: FormModel;
  /** rjsf's validator: on the page the precompiled functions, no compiler at run time. */
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

/** A form's validation over any rjsf validator of its schema: the page's precompiled one, or one the studio's preview compiled. */
export function formValidation(
  formName: FormName,
  validator: ValidatorType<RepairFormData, RJSFSchema>,
  { schema, uiSchema }: { schema: FormSchema; uiSchema: UiSchema },
  texts: Languages,
): FormValidation {
  const model = formModel(formName, schema, uiSchema);
  const check = (data: unknown) => validator.rawValidation<ValidationIssue>(schema as RJSFSchema, data as RepairFormData).errors ?? [];
  return {
    model,
    validator,
    validate: (data, locale, pending, brand, found) => judgeForm(model, check, cleanData(data), messageTable(texts, formName, locale), { pending, brand, found }),
  };
}

const cache = lazyCache<FormValidation>(async (formName) => {
  const load = Object.hasOwn(formModules, formName) ? formModules[formName] : undefined;
  if (!load) throw new Error(`the page was built without the ${formName} form`);
  const module: FormModule = await load();
  return formValidation(formName, createPrecompiledValidator<RepairFormData, RJSFSchema>(module.validators, module.schema as RJSFSchema), module, languages);
});

/** The form's validation, loading its chunk once. */
export function loadFormValidation(formName: FormName): Promise<FormValidation> {
  return cache.load(formName);
}

/**
 * Where the page's forms come from: the built portal's, each precompiled in its chunk, unless the
 * studio's preview provides forms compiled from the files being edited. The same promise for the
 * same form each time (React's `use` reads it).
 */
export const FormSourceContext = createContext<(formName: FormName) => Promise<FormValidation>>(loadFormValidation);
