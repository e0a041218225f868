import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
// From codegen directly: ajv's root re-exports `_` through getters that vitest's CJS interop loses.
import { _ } from 'ajv/dist/compile/codegen/index.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';

/**
 * `"filled": true` on a required text: the answer must say something, so
 * it needs a letter or a digit in some script. Blank, punctuation or emoji
 * alone count as missing, reported with the required message (the language files' validation tables
 * map `filled` to it).
 */
export const filledKeyword: CodeKeywordDefinition = {
  keyword: 'filled',
  type: 'string',
  schemaType: 'boolean',
  error: { message: 'must contain a letter or digit' },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    cxt.fail(_`!${usePattern(cxt, '[\\p{L}\\p{N}]')}.test(${cxt.data})`);
  },
};

/**
 * Characters that make a text show something other than what it holds, or
 * nothing at all: lone UTF-16 surrogates (half an emoji), bidi controls,
 * and every default-ignorable (invisible) character such as zero-width
 * spaces and joiners, the byte order mark, soft hyphens and the Hangul
 * fillers, plus the braille blank. Two invisibles keep their one honest
 * use, inside emoji: a zero-width joiner between pictographs (👨‍👩‍👧) and a
 * variation selector after an emoji character (❤️, 1️⃣). Tag characters
 * (subdivision flags) stay refused. No lookbehind: older Safari lacks it.
 */
const INVISIBLE = [
  '(?![\\u200d\\ufe0e\\ufe0f])[\\p{Cs}\\p{Default_Ignorable_Code_Point}\\u2800]',
  '(?:^|[^\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\ufe0f])\\u200d',
  '\\u200d(?!\\p{Extended_Pictographic})',
  '(?:^|[^\\p{Emoji}])[\\ufe0e\\ufe0f]',
];

/**
 * Control characters no one types into a form: C0, DEL, C1. A multi-line
 * text (`"lines"`) may hold tabs and line breaks; a one-line text not even
 * Unicode's own line and paragraph separators.
 */
const CONTROLS = {
  line: '[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]',
  lines: '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]',
};

/** `"plainText": "line" | "lines"`: text that shows what it holds: no control, broken or invisible characters. */
export const plainTextKeyword: CodeKeywordDefinition = {
  keyword: 'plainText',
  type: 'string',
  schemaType: 'string',
  metaSchema: { enum: ['line', 'lines'] },
  error: { message: 'must not contain control, invisible or direction-changing characters' },
  code(cxt: KeywordCxt) {
    const forbidden = [CONTROLS[cxt.schema as keyof typeof CONTROLS], ...INVISIBLE].join('|');
    cxt.fail(_`${usePattern(cxt, forbidden)}.test(${cxt.data})`);
  },
};
