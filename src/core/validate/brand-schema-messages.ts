import type { ErrorObject } from 'ajv';
import { isRecord } from './files.ts';
import { toPointer } from './problem.ts';

/** A brand-schema error as a pointer and a plain sentence (no ajv wording). */
export interface PlainError {
  pointer: string;
  message: string;
  /** The mistake is the name at the pointer (an unknown key), not its value. */
  atName?: boolean;
}

const LANGUAGES: Record<string, string> = { nl: 'Dutch (nl)', fr: 'French (fr)' };

const TYPE_SENTENCES: Record<string, string> = {
  string: 'this must be text between double quotes.',
  boolean: 'this must be true or false, without quotes.',
  object: 'this must be a group of fields between { and }.',
  array: 'this must be a list between [ and ].',
  number: 'this must be a number, without quotes.',
  integer: 'this must be a whole number, without quotes.',
};

/**
 * Turns ajv errors (run with `verbose: true`, so each carries its schema
 * and data) into plain sentences. Errors that only repeat what an inner
 * error says (`if`) are dropped.
 */
export function plainErrors(errors: readonly ErrorObject[], rootSchema: unknown): PlainError[] {
  const defs = isRecord(rootSchema) && isRecord(rootSchema.$defs) ? rootSchema.$defs : {};
  return errors.flatMap((error) => {
    const plain = plainError(error, defName(error.parentSchema, defs), rootSchema);
    return plain ? [plain] : [];
  });
}

/**
 * Which $defs entry an error comes from. By object identity, because ajv's
 * schemaPath is relative to the referenced schema when it compiles a $ref
 * as a function of its own ("#/additionalProperties" for the theme).
 */
function defName(parentSchema: unknown, defs: Record<string, unknown>): string | undefined {
  const found = Object.entries(defs).find(([, def]) => def === parentSchema);
  if (found) return found[0];
  const text = defs.text;
  const textProperties = isRecord(text) && isRecord(text.properties) ? text.properties : {};
  return Object.values(textProperties).includes(parentSchema) ? 'text-value' : undefined;
}

function plainError(error: ErrorObject, def: string | undefined, rootSchema: unknown): PlainError | null {
  const { keyword, instancePath, schemaPath, params, data, parentSchema } = error;
  const at = (...more: string[]) => instancePath + toPointer(more);
  const value = typeof data === 'string' ? data : JSON.stringify(data);
  switch (keyword) {
    case 'if':
      return null;
    case 'required':
      return requiredError(instancePath, String(params.missingProperty), schemaPath, def, parentSchema, rootSchema);
    case 'additionalProperties':
      return {
        pointer: at(String(params.additionalProperty)),
        atName: true,
        message: unknownKeySentence(String(params.additionalProperty), def, parentSchema),
      };
    case 'enum':
    case 'const':
      // The schema's own sentence, which editors show too; every enum and const of brand.schema.json has one.
      return { pointer: instancePath, message: `"${value}": ${schemaSentence(parentSchema) ?? `choose one of ${JSON.stringify(params.allowedValues ?? [params.allowedValue])}.`}` };
    case 'not':
      // The one `not` of brand.schema.json: options without mode "choice".
      return { pointer: at('options'), message: schemaSentence(parentSchema) ?? 'this value is not allowed here.' };
    case 'contains':
      return { pointer: instancePath, message: schemaSentence(parentSchema) ?? 'this list has too few items.' };
    case 'format':
      // The desk's addresses: the schema's sentence, as for patterns.
      return { pointer: instancePath, message: `"${value}": ${schemaSentence(parentSchema) ?? 'This does not have the expected form.'}` };
    case 'pattern': {
      // The same sentence editors show: the schema's patternErrorMessage (every pattern has one).
      const sentence = schemaSentence(parentSchema, 'patternErrorMessage') ?? 'This does not have the expected form.';
      // An empty text is said as such (the sentence names the language): quoting "" would only confuse.
      if (def === 'text-value') return { pointer: parentPointer(instancePath), message: sentence };
      return { pointer: instancePath, message: `"${value}": ${sentence}` };
    }
    case 'type':
      return { pointer: instancePath, message: TYPE_SENTENCES[String(params.type)] ?? `this must be of type ${String(params.type)}.` };
    case 'minLength':
      return { pointer: instancePath, message: Number(params.limit) === 1 ? 'this must not be empty.' : `this must be at least ${String(params.limit)} characters long.` };
    case 'maxLength':
      return { pointer: instancePath, message: `this is too long: at most ${String(params.limit)} characters are allowed.` };
    case 'uniqueItems':
      return { pointer: instancePath, message: `this list has the same item twice (items ${Number(params.j) + 1} and ${Number(params.i) + 1}).` };
    default:
      return { pointer: instancePath, message: `this value is not accepted (${error.message ?? keyword}).` };
  }
}

function requiredError(
  instancePath: string,
  missing: string,
  schemaPath: string,
  def: string | undefined,
  parentSchema: unknown,
  rootSchema: unknown,
): PlainError {
  if (LANGUAGES[missing]) {
    const what = def === 'text' ? 'text' : 'link';
    return {
      pointer: instancePath,
      message: `the ${LANGUAGES[missing]} ${what} is missing. Add "${missing}": "…" inside it: every ${what} a visitor sees needs both a Dutch (nl) and a French (fr) version.`,
    };
  }
  if (schemaPath === '#/properties/brandField/then/required') {
    return {
      pointer: instancePath + toPointer([missing]),
      message: 'a dropdown (mode "choice") needs "options": a list of at least two brand names.',
    };
  }
  // A key required by a condition (the form, unless the file still names it "variant") is described at the top.
  const description = describe(missing, parentSchema) ?? (instancePath === '' ? describe(missing, rootSchema) : undefined);
  return {
    pointer: instancePath + toPointer([missing]),
    message: `"${missing}" is missing; every brand file needs it.${description ? ` (${description})` : ''}`,
  };
}

function unknownKeySentence(key: string, def: string | undefined, parentSchema: unknown): string {
  const properties = isRecord(parentSchema) && isRecord(parentSchema.properties) ? parentSchema.properties : {};
  // A former name (deprecated) still works, but is not what to write.
  const knownList = Object.keys(properties).filter((k) => k !== '$schema' && !(isRecord(properties[k]) && 'deprecationMessage' in properties[k])).join(', ');
  if (def === 'theme') {
    return `"${key}" is not a colour this file knows. Known colours: ${knownList}. Check the spelling; capitals count.`;
  }
  if (def === 'text') {
    return `"${key}" is not a language code. Write each text under the code of a language of the brand, e.g. "nl" (Dutch) or "fr" (French).`;
  }
  return `"${key}" is not a field this file knows here. Known fields: ${knownList}. Check the spelling; capitals count.`;
}

/** The property's own description (the schema gives every property one; $defs have none, see brand.schema.json). */
function describe(property: string, parentSchema: unknown): string | undefined {
  if (!isRecord(parentSchema) || !isRecord(parentSchema.properties)) return undefined;
  const own = parentSchema.properties[property];
  if (!isRecord(own)) return undefined;
  return typeof own.description === 'string' ? own.description : undefined;
}

/** The plain sentence the schema gives for a rule (errorMessage, or patternErrorMessage for patterns). */
function schemaSentence(schema: unknown, key: 'errorMessage' | 'patternErrorMessage' = 'errorMessage'): string | undefined {
  return isRecord(schema) && typeof schema[key] === 'string' ? schema[key] : undefined;
}

function parentPointer(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}
