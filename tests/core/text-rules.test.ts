import fc from 'fast-check';
import { anyText } from '../support/any-text';
import { describe, expect, it } from 'vitest';
import { fieldErrors, type ValidationIssue } from '../../src/core/field-errors';
import { createRepairAjv } from '../../src/core/keywords/repair-ajv';
import { form, messages, portal } from '../support/portal-data';
import type { RepairFormData, FormName } from '../../src/core/types';
import { loadFormValidation } from '../../src/web/form/validation';
import { withPatch } from './form-rule-cases';

/**
 * The text rules fuzzed on both paths they run on: the server's and the CLI's
 * runtime ajv, and the page's precompiled validators. Both must say the same.
 */
const ajv = createRepairAjv(portal.rules);
const server = Object.fromEntries(
  (['simple', 'extended'] as FormName[]).map((variant) => {
    const validate = ajv.compile(form(variant).schema);
    return [variant, (data: RepairFormData) => (validate(data) ? {} : fieldErrors(validate.errors as ValidationIssue[], messages(variant)))];
  }),
) as Record<FormName, (data: RepairFormData) => Record<string, string[]>>;
const page: Record<FormName, Awaited<ReturnType<typeof loadFormValidation>>> = { simple: await loadFormValidation('simple'), extended: await loadFormValidation('extended') };

function judged(variant: FormName, field: string, value: string): string[] | undefined {
  const data = withPatch(variant, { [field]: value });
  const onServer = server[variant](data)[field];
  expect(page[variant].validate(data, 'nl')[field], 'page and server agree').toEqual(onServer);
  return onServer;
}

const INVALID: Record<FormName, string[]> = { simple: ['Ongeldige tekens'], extended: ['Invalid characters'] };
const REQUIRED: Record<FormName, string[]> = { simple: ['Dit veld is verplicht'], extended: ['This field is required'] };

/** Letters of scripts people write names in, some followed by the marks that build them. */
const letter = fc.constantFrom(
  ...'aAzZéÉëçñøßŁłŠšğİıœ',
  ...'αΩжЯ',
  ...'محمدأ',
  ...'שלום',
  ...'王李明',
  ...'キムさ',
  ...'김민',
  ...'अनक',
  'e\u0301', // e + combining acute (decomposed)
  'कि', // Devanagari ka + vowel sign i
);
const joiner = fc.constantFrom(' ', '-', "'", '’', '.', '\u2011');
/** A name as people write it: words of letters, joined by spaces, hyphens, apostrophes or dots. */
const personName = fc
  .array(fc.tuple(fc.string({ unit: letter, minLength: 1, maxLength: 8 }), joiner), { minLength: 1, maxLength: 4 })
  .map((words) => words.map(([word, join], i) => (i === 0 ? word : join + word)).join(''));

/** Characters that make text say something other than what it shows, or nothing at all. */
const invisible = fc.constantFrom(
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c',
  ...'\u200b\u200c\u200d\u2060\ufeff\u3164\u2800\u115f\u1160\uffa0',
  ...'\u00ad\u034f\u180e\u2061\u2062\u2063\u2064\u17b4\u17b5\ufe00\ufe0e\ufe0f',
  '\u{e0001}',
  '\u{e0041}',
  '\u{1d173}',
  '\u{1bca0}',
);

/** What is not a letter or digit: spaces, punctuation, symbols, emoji. */
const noLetterOrDigit = fc.constantFrom(...' .,-_\'"!?*/\\()[]{}<>@#$%&+=~^`|:;', '\u00a0', '\u3000', '…', '€', '😀', '👍🏽', '❤️', '→', '□');

const variants = fc.constantFrom<FormName>('simple', 'extended');

/** Any UTF-16 at all (lone surrogates too), whole graphemes, or a mix of the above. */
const someText = fc.oneof(
  anyText({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.oneof(invisible, letter, noLetterOrDigit), maxLength: 8 }),
);

describe('text rules, fuzzed on the page and the server alike', () => {
  it('accept names people have, in any script, with accents, apostrophes and hyphens', () => {
    fc.assert(
      fc.property(variants, personName, (variant, name) => {
        expect(judged(variant, 'last_name', name)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('refuse an invisible or direction-changing character anywhere in a name, with the invalid-characters message', () => {
    fc.assert(
      fc.property(variants, personName, invisible, fc.nat(), (variant, name, hidden, at) => {
        const cut = at % (name.length + 1);
        expect(judged(variant, 'last_name', name.slice(0, cut) + hidden + name.slice(cut))).toEqual(INVALID[variant]);
      }),
      { numRuns: 600 },
    );
  });

  it('refuse a required text with no letter or digit as not filled in', () => {
    fc.assert(
      fc.property(variants, fc.constantFrom('last_name', 'street_name', 'city', 'phone_number', 'description'), fc.string({ unit: noLetterOrDigit, minLength: 1, maxLength: 10 }), (variant, field, text) => {
        expect(judged(variant, field, text)).toEqual(REQUIRED[variant]);
      }),
      { numRuns: 400 },
    );
  });

  it('refuse text made of invisible characters and spaces, never letting it through', () => {
    fc.assert(
      fc.property(variants, fc.string({ unit: fc.oneof(invisible, fc.constantFrom(' ', '.')), minLength: 1, maxLength: 10 }), (variant, text) => {
        const found = judged(variant, 'last_name', text);
        expect(found === undefined ? [] : found).not.toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('say the same on the page and the server for any text at all', () => {
    fc.assert(
      fc.property(variants, fc.constantFrom('last_name', 'description', 'house_number_suffix'), someText, (variant, field, text) => {
        judged(variant, field, text);
      }),
      { numRuns: 600 },
    );
  });
});
