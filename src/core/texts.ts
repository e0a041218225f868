import type { Locale } from './types';

/** A language file, schemas/i18n/<code>.json, parsed: nested objects ending in texts. */
export type TextTree = { readonly [key: string]: string | TextTree };

/** Dutch is the portal's default language and the fallback of every missing text (spec §1). */
export const FALLBACK_LOCALE: Locale = 'nl';

/** Every language the portal has, by code (callers read the files; the page bundles them). */
export type Languages = ReadonlyMap<Locale, TextTree>;

/** Each tree's texts by dotted key, made at its first lookup: a submit looks up dozens (labels, the mails' words). */
const indexes = new WeakMap<TextTree, ReadonlyMap<string, string>>();

function indexOf(tree: TextTree): ReadonlyMap<string, string> {
  let index = indexes.get(tree);
  if (index === undefined) {
    const texts = new Map<string, string>();
    const walk = (node: TextTree, prefix: string) => {
      for (const [part, child] of Object.entries(node)) {
        // A key with a dot in it cannot be reached by a dotted key.
        if (part.includes('.')) continue;
        if (typeof child === 'string') texts.set(prefix + part, child);
        else if (child !== null && typeof child === 'object') walk(child, `${prefix}${part}.`);
      }
    };
    walk(tree, '');
    indexes.set(tree, (index = texts));
  }
  return index;
}

/** The text at a dotted key ("mail.desk.subject") of one tree, if it is a text (trees are read-only: indexed once). */
export function textAt(tree: TextTree | undefined, key: string): string | undefined {
  return tree === undefined ? undefined : indexOf(tree).get(key);
}

/** The text in `locale`, else in Dutch; undefined when neither has it. */
export function findText(languages: Languages, locale: Locale, key: string): string | undefined {
  return textAt(languages.get(locale), key) ?? textAt(languages.get(FALLBACK_LOCALE), key);
}

/**
 * Each template split at its placeholders (text, name, text, …), at its first fill: a submit fills the
 * same few texts of the language files, and a replace with a function per placeholder took 6 times as
 * long. Bounded, should texts ever come from elsewhere.
 */
const splitTemplates = new Map<string, readonly string[]>();
const MAX_SPLIT_TEMPLATES = 10_000;

/** `{{name}}` placeholders, the one syntax of every text, on the page and in the mails; a missing value is empty. */
export function fillText(template: string, values: Readonly<Record<string, unknown>> = {}): string {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{\{\s*(\w+)\s*\}\}/);
    if (splitTemplates.size < MAX_SPLIT_TEMPLATES) splitTemplates.set(template, parts);
  }
  let filled = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = Object.hasOwn(values, parts[i]) ? values[parts[i]] : undefined;
    filled += (value === undefined || value === null ? '' : String(value)) + parts[i + 1];
  }
  return filled;
}

/** The filled text in `locale` (Dutch where it lacks one); the key itself when no language has it (validate reports that). */
export function text(languages: Languages, locale: Locale, key: string, values?: Readonly<Record<string, unknown>>): string {
  return fillText(findText(languages, locale, key) ?? key, values);
}

/** A language's texts as the page asks for them: by key (or the first of several keys that has a text), with values for its {{placeholders}}. */
export type Translate = (key: string | readonly string[], values?: Readonly<Record<string, unknown>>) => string;

/** The texts of one language (Dutch where it lacks one), as a function of the key; of several keys, the first that has a text in either. */
export function translator(languages: Languages, locale: Locale): Translate {
  return (key, values) => {
    const keys = typeof key === 'string' ? [key] : key;
    const found = keys.find((k) => findText(languages, locale, k) !== undefined);
    return text(languages, locale, found ?? keys[keys.length - 1], values);
  };
}

/** The languages as an index, from parsed files keyed by code. */
export function indexLanguages(files: Readonly<Record<Locale, TextTree>>): Languages {
  return new Map(Object.entries(files));
}
