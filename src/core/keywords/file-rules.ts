import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
// From codegen directly: ajv's root re-exports `_` through getters that vitest's CJS interop loses.
import { _, stringify } from 'ajv/dist/compile/codegen/index.js';

export interface FileRules {
  maxBytes: number;
  types: string[];
}

/**
 * `"fileRules": {"maxBytes": …, "types": […]}` on a `{name, size, type}`
 * object: one error per broken rule, told apart by `params.rule`.
 */
export const fileRulesKeyword: CodeKeywordDefinition = {
  keyword: 'fileRules',
  type: 'object',
  schemaType: 'object',
  metaSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['maxBytes', 'types'],
    properties: {
      maxBytes: { type: 'integer', minimum: 1 },
      types: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z]+/[a-z0-9.+-]+$' } },
    },
  },
  error: {
    message: ({ params }) => _`${params.rule} === "maxBytes" ? "file is too large" : "file type is not allowed"`,
    params: ({ params }) => _`{rule: ${params.rule}, limit: ${params.limit}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const rules = cxt.schema as FileRules;
    gen.if(_`typeof ${data}.size == "number" && ${data}.size > ${rules.maxBytes}`, () => {
      cxt.setParams({ rule: _`"maxBytes"`, limit: _`${rules.maxBytes}` });
      cxt.error();
    });
    // stringify, not plain interpolation: an interpolated array becomes one
    // comma-joined string and `includes` would turn into a substring test.
    gen.if(_`!${stringify(rules.types)}.includes(${data}.type)`, () => {
      cxt.setParams({ rule: _`"types"`, limit: stringify(rules.types) });
      cxt.error();
    });
  },
};
