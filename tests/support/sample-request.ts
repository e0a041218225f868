/**
 * A valid request made from a form's model, not typed field by field: every
 * field the form has gets a value its own rules accept (role, enum, const,
 * type, limits, format, pattern, the country's postal code), every photo its
 * stored name. A test that is not about particular fields sends this, so it
 * holds for any form, the shipped ones included, whatever they are called.
 */
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { requestBrandIssues } from '../../src/core/brand-rule';
import type { FormModel } from '../../src/core/form-model';
import type { PropertySchema } from '../../src/core/form-schema';
import { createRepairAjv } from '../../src/core/keywords/repair-ajv';
import type { RuleData } from '../../src/core/keywords/index';
import type { Brand, Country, Locale, RepairFormData, RepairRequest } from '../../src/core/types';

export interface SampleOptions {
  /** The brand the request is sent to: its name (role brand) and its brand field's mode. */
  brand: Pick<Brand, 'name' | 'brandField' | 'countries' | 'locales'>;
  /** The page's language (role language). */
  locale: Locale;
  /** The page's country (role country): one of the brand's. */
  country: Country;
  /** The stored names of the photos, in the form's photo order (model.photos), as given (even one the rules refuse); a form with fewer takes the first. */
  photos?: readonly string[];
  /** The customer's address (role customer-email). */
  email?: string;
  /** Optional fields left out, but for those `answers` fills (default: every field gets a value). */
  requiredOnly?: boolean;
  /** A person's own answers, tried first for the fields the form has (a form without the field ignores it). */
  answers?: Readonly<Record<string, unknown>>;
  /** The names of the files chosen for the photos, in the form's photo order (sampleFormData). */
  chosen?: readonly string[];
}

const SEED = 20240301;

/** Characters a person types: what a pattern's sample may hold (fast-check's own also draws control characters). */
const TYPED = /^[\p{L}\p{N} .,'\-/+()@]*$/u;

/** Options and the data the rules read (the postal-code patterns). */
type Made = SampleOptions & { postalCodes?: Record<string, string> };

/** Values that a field of this shape may hold, likeliest first: the first that the form's rules accept is used. */
function candidates(name: string, property: PropertySchema, model: FormModel, options: Made): unknown[] {
  const made = madeValues(name, property, model, options);
  return options.answers && Object.hasOwn(options.answers, name) ? [options.answers[name], ...made] : made;
}

function madeValues(name: string, property: PropertySchema, model: FormModel, options: Made): unknown[] {
  const role = property.role;
  if (role === 'customer-email') return [options.email ?? 'klant@example.com'];
  if (role === 'dealer-email') return ['dealer@example.com'];
  if (role === 'language') return [options.locale];
  if (role === 'country') return [options.country];
  if (role === 'brand') return options.brand.brandField.mode === 'choice' ? [...options.brand.brandField.options].reverse() : [options.brand.name];
  if (role === 'date-text') return ['2024-03-01', '01-03-2024'];
  const photo = model.photos.findIndex((p) => p.target === name);
  if (photo >= 0) return [options.photos?.[photo] ?? `00000000-0000-4000-8000-00000000000${photo + 1}.jpg`];
  if (property.const !== undefined) return [property.const];
  if (Array.isArray(property.enum)) return property.enum.filter((v) => v !== '' && v !== null);
  if (property.type === 'boolean') return [true, false];
  if (property.type === 'integer' || property.type === 'number') return numbers(property);
  if (property.format === 'email' || property.format === 'idn-email') return ['info@example.com'];
  if (property.format === 'date') return ['2024-03-01'];
  if (property.format === 'date-time') return ['2024-03-01T10:00:00Z'];
  if (property.format === 'uri' || property.format === 'url') return ['https://example.com/'];
  const texts = [`Voorbeeld ${name.replace(/_/g, ' ')}`, 'Voorbeeld', 'A1', '1'];
  const ui = model.uiSchema[name] as { 'ui:options'?: { inputType?: string } } | undefined;
  if (ui?.['ui:options']?.inputType === 'tel') texts.unshift('0612345678');
  if (typeof property.pattern === 'string') texts.unshift(...patternSamples(property.pattern));
  if (property.postalCode !== undefined) {
    const pattern = options.postalCodes?.[options.country];
    if (pattern) texts.unshift(...patternSamples(pattern));
  }
  const max = typeof property.maxLength === 'number' ? property.maxLength : Infinity;
  const min = typeof property.minLength === 'number' ? property.minLength : 0;
  return texts.map((t) => (t.length < min ? t.padEnd(min, 'x') : t)).filter((t) => t.length <= max);
}

/** Whole numbers within the field's limits: its minimum (or 1), then its maximum. */
function numbers(property: PropertySchema): number[] {
  const min = typeof property.minimum === 'number' ? property.minimum : typeof property.exclusiveMinimum === 'number' ? property.exclusiveMinimum + 1 : 1;
  const max = typeof property.maximum === 'number' ? property.maximum : typeof property.exclusiveMaximum === 'number' ? property.exclusiveMaximum - 1 : min + 100;
  const step = typeof property.multipleOf === 'number' ? property.multipleOf : 1;
  const first = Math.ceil(Math.max(min, 1) / step) * step;
  return [first <= max ? first : Math.ceil(min / step) * step, max, 12];
}

/** A few strings matching the pattern, drawn with a fixed seed (the same every run), of characters people type. */
function patternSamples(pattern: string): string[] {
  const drawn = fc.sample(fc.stringMatching(new RegExp(pattern, 'u'), { size: 'xsmall' }), { seed: SEED, numRuns: 50 });
  return [...new Set(drawn.filter((s) => s.trim() !== '' && TYPED.test(s)))].slice(0, 8);
}

const validators = new WeakMap<FormModel, ValidateFunction>();

/** The form's schema compiled by the portal's own rules (as the server compiles it). */
function validatorOf(model: FormModel, rules: RuleData): ValidateFunction {
  const found = validators.get(model);
  if (found) return found;
  const made = createRepairAjv(rules).compile(model.schema);
  validators.set(model, made);
  return made;
}

/** The fields of the request that ajv's issues name (a missing one by its name, others by their path). */
function fieldsIn(issues: readonly { instancePath: string; params: Record<string, unknown> }[]): Set<string> {
  return new Set(issues.map((i) => (i.instancePath === '' ? String(i.params.missingProperty ?? '') : i.instancePath.split('/')[1])));
}

/**
 * The request as the page sends it for `model` (shapeRequest's body: no
 * form-only fields), accepted by the form's schema and the brand's rules;
 * throws, naming the fields, when no made value is accepted.
 */
export function sampleRequest(model: FormModel, rules: RuleData, options: SampleOptions): RepairRequest {
  const made: Made = { ...options, postalCodes: { ...rules.postalCodes } };
  const required = new Set(model.schema.required);
  const answered = (name: string) => options.answers !== undefined && Object.hasOwn(options.answers, name);
  // What the page sends whatever the customer filled: the language, and a brand the brand file fixes (shapeRequest).
  const pageFilled = new Set([model.roles.language, options.brand.brandField.mode === 'fixed' ? model.roles.brand : undefined]);
  const fields = model.requestFields.filter(
    (name) => !options.requiredOnly || required.has(name) || answered(name) || pageFilled.has(name) || model.photos.some((p) => p.target === name),
  );
  const choices = new Map(fields.map((name) => [name, candidates(name, model.schema.properties[name], model, made)]));
  const tried = new Map(fields.map((name) => [name, 0]));
  const validate = validatorOf(model, rules);
  for (;;) {
    const body: Record<string, unknown> = {};
    for (const name of fields) {
      const value = choices.get(name)![tried.get(name)!];
      if (value !== undefined) body[name] = value;
    }
    // The photo names given are the caller's to choose (a test may send a name the server never stored, or none).
    const given = new Set(model.photos.filter((_p, i) => options.photos?.[i] !== undefined).map((p) => p.target));
    const issues = [...(validate(body) ? [] : (validate.errors ?? [])), ...requestBrandIssues(options.brand, model, body)].filter((issue) => ![...fieldsIn([issue])].some((name) => given.has(name)));
    if (issues.length === 0) return body;
    const wrong = [...fieldsIn(issues)].filter((name) => tried.has(name));
    const next = wrong.filter((name) => tried.get(name)! + 1 < choices.get(name)!.length);
    if (next.length === 0) {
      throw new Error(`sampleRequest: no value made for the ${model.name} form is accepted: ${JSON.stringify(issues.map((i) => [i.instancePath, i.keyword, i.params]))}`);
    }
    for (const name of next) tried.set(name, tried.get(name)! + 1);
  }
}

/** What a photo picker holds once a photo is chosen (the page's FileFacts): a type the picker takes, the one the name says if it can. */
export function chosenPhoto(model: FormModel, picker: string, name = 'foto.jpg'): { name: string; size: number; type: string } {
  const types = (model.schema.properties[picker]?.fileRules as { types?: string[] } | undefined)?.types ?? ['image/jpeg'];
  const named = types.find((type) => name.toLowerCase().endsWith(`.${type.split('/')[1]}`));
  return { name, size: 1000, type: named ?? types[0] };
}

/** The form's data as the page holds it for that request: each photo's picker filled, without the brand a brand file fixes (the page adds it when sending). */
export function sampleFormData(model: FormModel, rules: RuleData, options: SampleOptions): RepairFormData {
  const request: Record<string, unknown> = { ...sampleRequest(model, rules, options) };
  if (options.brand.brandField.mode === 'fixed' && model.roles.brand !== undefined) delete request[model.roles.brand];
  const pickers = Object.fromEntries(
    model.photos.flatMap((p, i) => (request[p.target] === undefined ? [] : [[p.picker, chosenPhoto(model, p.picker, options.chosen?.[i] ?? `foto-${i + 1}.jpg`)]])),
  );
  return { ...request, ...pickers };
}
