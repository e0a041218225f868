import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
// From codegen directly: ajv's root re-exports `_` through getters that vitest's CJS interop loses.
import { _, or } from 'ajv/dist/compile/codegen/index.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';
import postalCodes from '../../../schemas/forms/postal-codes.json';

const PATTERNS: Record<string, string> = postalCodes.patterns;

/**
 * `"postalCode": {"$data": "1/country"}` checks a postal code against its
 * country's pattern. Emitted as code (not a validate function) so that it
 * precompiles: the page ships no runtime compiler.
 */
export const postalCodeKeyword: CodeKeywordDefinition = {
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
    const mismatches = Object.entries(PATTERNS).map(
      ([country, pattern]) => _`(${schemaCode} === ${country} && !${usePattern(cxt, pattern)}.test(${data}))`,
    );
    // Without $data (a fixed country in the schema) the same check applies.
    cxt.fail$data(or(...mismatches));
  },
};
