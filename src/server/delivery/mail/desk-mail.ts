import { extname } from 'node:path';
import { requestOrder, requestPhotos, type FormModel } from '../../../core/form-model';
import { fillText, findText, type Languages } from '../../../core/texts';
import type { Brand, Locale, RepairRequest } from '../../../core/types';
import { STORED_PHOTO, storedPhotoType } from '../../storage/photo-folder';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import { dateTimeForPeople } from '../../../core/for-people';
import { fieldLabel, intlLocale, languageName, photoFileName, shownValue, type RequestWords } from '../../../core/request-words';
import { lineBreaks, oneLine, tidyText } from './tidy-text';

/** What the desk's mail is made of: the request, its form and brand, where it stands in time, and the words. */
export interface DeskMailInput {
  model: FormModel;
  request: RepairRequest;
  brand: Pick<Brand, 'name' | 'serviceDesk'>;
  /** The request's language: the desk is told which language to answer in. */
  locale: Locale;
  reference: string;
  receivedAt: number;
  timeZone: string;
  languages: Languages;
}

/**
 * The service desk's mail: subject with reference, brand and what the
 * desk's subject line names (postal code and city); when it was received,
 * on the clock of `timeZone` with its offset; the customer's language;
 * every field of the request in form order, labelled in the desk's
 * language. The photos are attached when it is sent (deskAttachments).
 */
export function composeDeskMail({ model, request, brand, locale, reference, receivedAt, timeZone, languages }: DeskMailInput): QueuedDelivery {
  const words: RequestWords = { languages, language: brand.serviceDesk.language };
  const fixed = deskWords(model, words);
  // The subject and intro may name any field of the request ({{postal_code}}), the brand and the reference.
  const values = { ...request, brand: brand.name, reference };
  const lines = [fillText(fixed.said('intro'), values), '', `${fixed.said('reference')}: ${reference}`, `${fixed.said('received')}: ${dateTimeForPeople(receivedAt, fixed.intl, timeZone)}`];
  // A form without a language field still tells the desk which language the customer wrote in.
  if (model.roles.language === undefined) lines.push(`${fixed.said('customerLanguage')}: ${fixed.languageName(locale)}`);
  lines.push('');
  for (const { field, label } of fixed.fields) {
    const value = lineBreaks(shownValue(model, field, request, reference, words));
    // Long texts start on their own line, so the desk reads them as the customer wrote them.
    lines.push(value.includes('\n') ? `${label}:\n${value}` : `${label}: ${value}`);
  }
  return queued('desk', reference, brand.serviceDesk.emails.join(', '), oneLine(fillText(fixed.said('subject'), values)), tidyText(lines.join('\n')), words.language);
}

/** The desk mail's words no request changes, of one form in one language: its fields labelled in order, its texts unfilled. */
interface DeskWords {
  fields: { field: string; label: string }[];
  said(key: string): string;
  languageName(code: string): string;
  intl: string;
}

/** Per form, language files and desk language: looked up at the first mail, each lookup a walk of the language files. */
const deskWordsOf = new WeakMap<FormModel, WeakMap<Languages, Map<Locale, DeskWords>>>();

function deskWords(model: FormModel, words: RequestWords): DeskWords {
  let byLanguages = deskWordsOf.get(model);
  if (byLanguages === undefined) deskWordsOf.set(model, (byLanguages = new WeakMap()));
  let byLanguage = byLanguages.get(words.languages);
  if (byLanguage === undefined) byLanguages.set(words.languages, (byLanguage = new Map()));
  let found = byLanguage.get(words.language);
  if (found === undefined) {
    const said = new Map<string, string>();
    const names = new Map<string, string>();
    const known = <T>(cache: Map<string, T>, key: string, make: () => T): T => {
      if (!cache.has(key)) cache.set(key, make());
      return cache.get(key) as T;
    };
    found = {
      fields: requestOrder(model).map((field) => ({ field, label: fieldLabel(model, field, words) })),
      said: (key) => known(said, key, () => findText(words.languages, words.language, `mail.desk.${key}`) ?? `mail.desk.${key}`),
      languageName: (code) => known(names, code, () => languageName(code, words)),
      intl: intlLocale(words),
    };
    byLanguage.set(words.language, found);
  }
  return found;
}

/**
 * The photos of a request whose form is unknown (stored before revisions, its form removed): every value
 * that names a stored photo, named after its field. Its desk mail still reaches the desk whole.
 */
export async function unknownFormAttachments(
  request: RepairRequest,
  reference: string,
  read: (name: string) => Promise<Buffer | undefined>,
): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
  const found = await Promise.all(
    Object.entries(request).map(async ([field, name]) => {
      if (typeof name !== 'string' || !STORED_PHOTO.test(name)) return [];
      const content = await read(name);
      return content ? [{ filename: `${reference}-${field}${extname(name)}`, content, contentType: storedPhotoType(name) }] : [];
    }),
  );
  return found.flat();
}

/** The stored, re-encoded photos of a request, named for the desk. A photo no longer stored fails the attempt. */
export async function deskAttachments(
  model: Pick<FormModel, 'photos'>,
  request: RepairRequest,
  reference: string,
  words: RequestWords,
  read: (name: string) => Promise<Buffer | undefined>,
): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
  return Promise.all(
    requestPhotos(model, request).map(async ({ field, name }) => {
      const content = await read(name);
      if (!content) throw new Error(`photo ${name} of request ${reference} is not stored`);
      return { filename: photoFileName(reference, field, name, words), content, contentType: storedPhotoType(name) };
    }),
  );
}
