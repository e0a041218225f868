import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
// From codegen directly: ajv's root re-exports `_` through getters that vitest's CJS interop loses.
import { _ } from 'ajv/dist/compile/codegen/index.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';

/**
 * `"filled": true` on a required text: blank is not an answer. Only
 * whitespace counts as missing, and is reported with the required message
 * (messages.json maps `filled` to it).
 */
export const filledKeyword: CodeKeywordDefinition = {
  keyword: 'filled',
  type: 'string',
  schemaType: 'boolean',
  error: { message: 'must not be blank' },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    cxt.fail(_`!${usePattern(cxt, '\\S')}.test(${cxt.data})`);
  },
};

/**
 * Characters no one types into a form: NUL and other control characters
 * (C0, DEL, C1) and lone UTF-16 surrogates (half an emoji, not text).
 * A multi-line text (`"lines"`) may hold tabs and line breaks.
 */
const FORBIDDEN = {
  line: '[\\u0000-\\u001f\\u007f-\\u009f\\p{Cs}]',
  lines: '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\p{Cs}]',
};

/** `"plainText": "line" | "lines"`: text without control characters or broken characters. */
export const plainTextKeyword: CodeKeywordDefinition = {
  keyword: 'plainText',
  type: 'string',
  schemaType: 'string',
  metaSchema: { enum: ['line', 'lines'] },
  error: { message: 'must not contain control characters' },
  code(cxt: KeywordCxt) {
    cxt.fail(_`${usePattern(cxt, FORBIDDEN[cxt.schema as keyof typeof FORBIDDEN])}.test(${cxt.data})`);
  },
};
