import type { Country, Locale } from './types';

/** The shape of a form's schema and what page, server and CLI read from it. */
export interface PropertySchema {
  type?: string;
  maxLength?: number;
  formOnly?: boolean;
  enum?: string[];
  role?: string;
  personal?: boolean;
  [keyword: string]: unknown;
}

export interface FormSchema {
  $id: string;
  type: 'object';
  required: string[];
  properties: Record<string, PropertySchema>;
  [keyword: string]: unknown;
}

export type UiSchema = Record<string, unknown>;

/** The file of field definitions the forms share (schemas/forms/fields.json), as a `$ref` names it. */
export const SHARED_FIELDS_FILE = 'fields.json';

/** schemas/forms/fields.json, parsed. */
export interface SharedFields {
  definitions: Record<string, PropertySchema>;
}

/** What fills a form's choices from data: every country (schemas/countries.json) and language (schemas/i18n). */
export interface FormChoices {
  countries: readonly Country[];
  languages: readonly Locale[];
}

/** `fields.json#/definitions/<name>` → the definition's name; undefined for any other reference. */
export function sharedFieldName(ref: unknown): string | undefined {
  const match = typeof ref === 'string' ? /^fields\.json#\/definitions\/([^/]+)$/.exec(ref) : null;
  return match?.[1];
}

/**
 * A form's schema as page, server and CLI use it: each property that
 * refers to a shared definition (`{"$ref": "fields.json#/definitions/x"}`)
 * becomes that definition with the rules written beside the `$ref` added
 * (one written beside it wins), and the country and language fields offer
 * every country and language the portal has (a brand narrows the countries;
 * core/brand-rule.ts). `npm run validate` reports what cannot be assembled;
 * here an unknown definition is an error. The file's `$schema` (for editors) stays out.
 */
export function assembleFormSchema(source: FormSchema, shared: SharedFields, choices: FormChoices): FormSchema {
  const properties: Record<string, PropertySchema> = {};
  for (const [name, property] of Object.entries(source.properties)) {
    const { $ref, ...beside } = property;
    const refName = sharedFieldName($ref);
    if ($ref !== undefined && (refName === undefined || !Object.hasOwn(shared.definitions, refName))) {
      throw new Error(`${source.$id}: the field ${name} refers to ${String($ref)}, which is no definition of ${SHARED_FIELDS_FILE}`);
    }
    const assembled: PropertySchema = structuredClone(refName === undefined ? beside : { ...shared.definitions[refName], ...beside });
    if (assembled.role === 'country') assembled.enum = [...choices.countries];
    if (assembled.role === 'language') assembled.enum = [...choices.languages];
    properties[name] = assembled;
  }
  // `$schema` names the rules editors check the file with (schemas/form.schema.json), not a dialect ajv knows: the forms are draft 07, ajv's own.
  const { $schema: _editorRules, ...form } = source;
  return { ...structuredClone(form), properties } as FormSchema;
}
