import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
// From codegen directly: ajv's root re-exports `_` through getters that vitest's CJS interop loses.
import { _, or } from 'ajv/dist/compile/codegen/index.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';

/**
 * `"postalCode": {"$data": "1/country"}` checks a postal code against its
 * country's pattern (`patterns`: schemas/countries.json, read by the caller).
 * Emitted as code (not a validate function) so that it precompiles: the page
 * ships no runtime compiler, and the patterns are part of its validator.
 */
export function postalCodeKeyword(patterns: Readonly<Record<string, string>>): CodeKeywordDefinition {
  return {
    keyword: 'postalCode',
    type: 'string',
    schemaType: 'string',
    $data: true,
    error: {
      message: 'must be a valid postal code for the country',
      params: ({ schemaCode }) => _`{country: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { data, schemaCode } = cxt;
      const mismatches = Object.entries(patterns).map(
        ([country, pattern]) => _`(${schemaCode} === ${country} && !${usePattern(cxt, pattern)}.test(${data}))`,
      );
      // Without $data (a fixed country in the schema) the same check applies; no pattern at all: nothing to check.
      cxt.fail$data(mismatches.length > 0 ? or(...mismatches) : _`false`);
    },
  };
}
