import type { KeywordDefinition } from 'ajv';

/**
 * `"formOnly": true` marks a property that lives only in the page (the photo
 * pickers): it is validated there and removed before sending; the server
 * refuses it. An annotation, so it emits no code.
 */
export const formOnlyKeyword: KeywordDefinition = {
  keyword: 'formOnly',
  schemaType: 'boolean',
};
