import type { FormModel } from './form-model';
import { findText, textAt, type Languages } from './texts';
import type { Locale, RepairRequest } from './types';
import { dateTextForPeople } from './for-people';

/**
 * A request as people read it (the desk's mail, the webhook's file names,
 * the staff's export): labels, values and photo names in one language, from
 * the language files, chosen by what the form's schema says of each field
 * (its role, its picker), never by the field's name.
 */
/** A stored file's extension with its dot (".jpg"), as node:path's extname gives it. */
const extensionOf = (name: string): string => /[^/]\.[^./]*$/.exec(name)?.[0].slice(1) ?? '';

export interface RequestWords {
  languages: Languages;
  language: Locale;
}

/**
 * A request field's label: the page's (a photo target is labelled as its picker; the short form where
 * the page has one, without the "(optional)" hint), else the desk's own for a field the page does not
 * show (`mail.desk.labels`); the field's name where no language labels it.
 */
export function fieldLabel(model: Pick<FormModel, 'aliases'> | undefined, field: string, { languages, language }: RequestWords): string {
  const shown = (model && Object.hasOwn(model.aliases, field) ? model.aliases[field] : undefined) ?? field;
  const label = ['fieldsShort', 'fields', 'mail.desk.labels'].reduce<string | undefined>((found, table) => found ?? findText(languages, language, `${table}.${shown}`), undefined);
  const optional = findText(languages, language, 'optional');
  return label === undefined ? field : optional ? label.replace(` ${optional}`, '') : label;
}

/** A language's name for the desk: in the desk's language, else the language's own name for itself, else its code. */
export function languageName(code: string, { languages, language }: RequestWords): string {
  return findText(languages, language, `mail.desk.languages.${code}`) ?? textAt(languages.get(code), 'language.name') ?? code;
}

/** `<reference>-typeplaatje.jpg`: a photo's attachment name in the desk's language, the stored file's extension. */
export function photoFileName(reference: string, field: string, stored: string, words: RequestWords): string {
  return `${reference}-${findText(words.languages, words.language, `mail.desk.photoNames.${field}`) ?? field}${extensionOf(stored)}`;
}

/**
 * A value in people's words (the desk's mail, the staff's export): country and language names, a
 * choice's label as the page offers it (`options.<field>.<value>`), yes/no, dates written out, a photo
 * by its attachment name; undefined when not given.
 */
export function requestValue(model: FormModel, field: string, request: RepairRequest, reference: string, words: RequestWords): string | undefined {
  const { languages, language } = words;
  const value = request[field];
  if (value === undefined || value === null || value === '') return undefined;
  const role = model.schema.properties[field]?.role;
  if (role === 'country') return findText(languages, language, `countries.${String(value)}`) ?? String(value);
  if (role === 'language') return languageName(String(value), words);
  if (Array.isArray(model.schema.properties[field]?.enum)) return findText(languages, language, `options.${field}.${String(value)}`) ?? String(value);
  if (typeof value === 'boolean') return findText(languages, language, `mail.desk.${value ? 'yes' : 'no'}`) ?? String(value);
  if (role === 'date-text') return dateTextForPeople(String(value), intlLocale(words));
  if (Object.hasOwn(model.aliases, field)) return photoFileName(reference, field, String(value), words);
  return String(value);
}

/** A value as the desk's mail shows it: in words, a photo marked as attached, a missing value said so. */
export function shownValue(model: FormModel, field: string, request: RepairRequest, reference: string, words: RequestWords): string {
  const said = (key: string) => findText(words.languages, words.language, `mail.desk.${key}`) ?? key;
  const value = requestValue(model, field, request, reference, words);
  if (value === undefined) return said('empty');
  return Object.hasOwn(model.aliases, field) ? `${value} (${said('attached')})` : value;
}

/** The Intl locale the language writes dates in (its file's `language.intl`, e.g. nl-BE), else its code. */
export function intlLocale({ languages, language }: RequestWords): string {
  return textAt(languages.get(language), 'language.intl') ?? language;
}
