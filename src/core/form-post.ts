import type { FormSchema, PropertySchema } from './form-schema';
import type { RepairFormData } from './types';

/** The hidden field that carries the idempotency key of a form posted without scripts. */
export const SUBMISSION_FIELD = 'submission';

/** The page's controls are named after their rjsf ids: root_<property>. */
const CONTROL_PREFIX = 'root_';

/** The schema property a posted control stands for, if any. */
export function postedProperty(controlName: string, schema: FormSchema): string | undefined {
  if (!controlName.startsWith(CONTROL_PREFIX)) return undefined;
  const property = controlName.slice(CONTROL_PREFIX.length);
  return Object.hasOwn(schema.properties, property) ? property : undefined;
}

/** What a person types as a house number. Number() also reads hex, exponents, signs and spaces ("0x10" is 16). */
const DECIMAL_DIGITS = /^[0-9]{1,15}$/;

/**
 * A posted text as the page's control would hold it: empty is absent (the
 * page's emptyValue), a number field's decimal digits are a number (its input is
 * type=number, anything else stays text for the rules to refuse), a ticked
 * checkbox is `true`.
 */
function postedValue(property: PropertySchema, text: string): unknown {
  if (text === '') return undefined;
  if (property.type === 'integer' || property.type === 'number') return DECIMAL_DIGITS.test(text) ? Number(text) : text;
  if (property.type === 'boolean') return true;
  return text;
}

/** The form data of a post: known text controls only (files and form-only objects are the caller's). */
export function postedFormData(fields: Iterable<[string, string]>, schema: FormSchema): RepairFormData {
  const data: Record<string, unknown> = {};
  for (const [name, text] of fields) {
    const property = postedProperty(name, schema);
    if (!property || schema.properties[property].type === 'object') continue;
    const value = postedValue(schema.properties[property], text);
    if (value !== undefined) data[property] = value;
  }
  return data as RepairFormData;
}
