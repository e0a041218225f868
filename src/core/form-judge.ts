import { brandIssues, requestBrandIssues, type BrandRules } from './brand-rule';
import { fieldErrors, type FieldErrors, type MessageTable, type ValidationIssue } from './field-errors';
import type { FormModel } from './form-model';

/** A form's compiled schema (ajv's, precompiled or not) as a function: the data's issues, none when valid. */
export type SchemaCheck = (data: unknown) => readonly ValidationIssue[];

/** What else a judgement weighs besides the schema. */
export interface Circumstances {
  /** Fields whose `required` stays quiet: a photo on its way (uploading, or received but not stored yet). */
  pending?: readonly string[];
  /** The brand file's own rules on its form (brand names, countries, languages). */
  brand?: BrandRules;
  /** Issues found elsewhere (a photo the server refused), told in the same words. */
  found?: readonly ValidationIssue[];
  /**
   * The data is a request as sent to the API (shapeRequest's body), not the form's: a brand the form
   * fixes must be in it, and errors are named by its own fields rather than shown on a photo's picker.
   */
  asSent?: boolean;
}

/**
 * The one judgement of a form's data, for the page, the server (JSON and
 * without scripts) and the studio's preview alike: the schema's issues, but
 * `required` of what is pending, then the brand's rules and what was found
 * elsewhere, as messages per field (a hidden photo target's on its picker,
 * but in a request as sent).
 * Each caller brings its own compiled schema: precompiled on the page, ajv
 * on the server, compiled in the browser by the studio.
 */
export function judgeForm(
  model: Pick<FormModel, 'roles' | 'aliases'>,
  check: SchemaCheck,
  data: unknown,
  table: MessageTable,
  { pending = [], brand, found = [], asSent = false }: Circumstances = {},
): FieldErrors {
  const issues = [
    ...check(data).filter((e) => !(e.keyword === 'required' && pending.includes(String(e.params.missingProperty)))),
    ...(brand ? (asSent ? requestBrandIssues : brandIssues)(brand, model, data) : []),
    ...found,
  ];
  return fieldErrors(issues, table, asSent ? {} : model.aliases);
}
