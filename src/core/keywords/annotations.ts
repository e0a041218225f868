import type { KeywordDefinition } from 'ajv';
import { FIELD_ROLES } from '../field-roles.ts';

/**
 * `"formOnly": true` marks a property that lives only in the page (the photo
 * pickers): it is validated there and removed before sending; the server
 * refuses it. An annotation, so it emits no code.
 */
export const formOnlyKeyword: KeywordDefinition = {
  keyword: 'formOnly',
  schemaType: 'boolean',
};

/**
 * `"role": "customer-email"` (and the other FIELD_ROLES): what the portal
 * does with a field beyond validating it, said in the schema rather than by
 * its name in code (core/form-model.ts). An annotation; an unknown role fails
 * to compile, so validate names it.
 */
export const roleKeyword: KeywordDefinition = {
  keyword: 'role',
  schemaType: 'string',
  metaSchema: { enum: [...FIELD_ROLES] },
};

/** `"personal": true`: what a person typed about themselves; kept out of the log. An annotation. */
export const personalKeyword: KeywordDefinition = {
  keyword: 'personal',
  schemaType: 'boolean',
};
