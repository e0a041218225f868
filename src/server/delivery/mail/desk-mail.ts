import { extname } from 'node:path';
import { formSchemas, requestFieldsInFormOrder } from '../../../core/form-schemas';
import type { Brand, Locale, RepairRequest } from '../../../core/types';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import { fill, oneLine, tidyText } from './fill';
import { dateTextForPeople, dateTimeForPeople } from './for-people';
import messages from './messages.json';
import { countryName, fieldLabel } from './page-texts';

type PhotoField = 'image1' | 'image2';
const PHOTO_FIELDS: PhotoField[] = ['image1', 'image2'];
const DATE_FIELDS = new Set(['purchase_date', 'install_date']);
const FIELD_ORDER = Object.fromEntries(
  Object.entries(formSchemas).map(([variant, { schema, uiSchema }]) => [variant, requestFieldsInFormOrder(schema, uiSchema)]),
) as Record<Brand['variant'], string[]>;

/** `<reference>-typeplaatje.jpg`: the attachment's name in the desk's language, the stored file's extension. */
export function photoFileName(reference: string, field: PhotoField, stored: string, language: Locale): string {
  return `${reference}-${messages[language].desk.photoNames[field]}${extname(stored)}`;
}

/**
 * The service desk's mail: subject with reference, brand, postal code and
 * city; when it was received, on the clock of `timeZone` with its offset;
 * every field of the request in form order, labelled in the desk's language.
 * The photos are attached when it is sent (deskAttachments).
 */
export function composeDeskMail(request: RepairRequest, brand: Brand, reference: string, receivedAt: number, timeZone: string): QueuedDelivery {
  const language = brand.serviceDesk.language;
  const t = messages[language].desk;
  const values = { brand: brand.name, reference, postal_code: request.postal_code, city: request.city };
  const lines = [
    fill(t.intro, values),
    '',
    `${t.reference}: ${reference}`,
    `${t.received}: ${dateTimeForPeople(receivedAt, language, timeZone)}`,
    '',
  ];
  for (const field of FIELD_ORDER[brand.variant]) {
    const label = deskFieldLabel(field, language);
    const value = shownValue(field, request, reference, language);
    // Long texts start on their own line, so the desk reads them as the customer wrote them.
    lines.push(value.includes('\n') ? `${label}:\n${value}` : `${label}: ${value}`);
  }
  return queued('desk', brand.serviceDesk.emails.join(', '), oneLine(fill(messages[language].desk.subject, values)), tidyText(lines.join('\n')));
}

/**
 * A request field's label for the desk (its mail, the staff's export): the page's label (a photo is
 * labelled as its picker); fields the page does not label have a desk label.
 */
export function deskFieldLabel(field: string, language: Locale): string {
  const picker = { image1: 'upload_1', image2: 'upload_2' }[field] ?? field;
  const deskLabels = messages[language].desk as Record<string, unknown>;
  return fieldLabel(picker, language) ?? String(deskLabels[field] ?? field);
}

function shownValue(field: string, request: RepairRequest, reference: string, language: Locale): string {
  const t = messages[language].desk;
  const value = (request as unknown as Record<string, unknown>)[field];
  if (value === undefined || value === null || value === '') return t.empty;
  if (field === 'country') return countryName(String(value), language);
  if (field === 'language') return t.languages[value as Locale] ?? String(value);
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (DATE_FIELDS.has(field)) return dateTextForPeople(String(value), language);
  if (PHOTO_FIELDS.includes(field as PhotoField)) {
    return `${photoFileName(reference, field as PhotoField, String(value), language)} (${t.attached})`;
  }
  return String(value);
}

/** The stored, re-encoded photos of a request, named for the desk. A photo no longer stored fails the attempt. */
export async function deskAttachments(
  request: RepairRequest,
  reference: string,
  language: Locale,
  read: (name: string) => Promise<Buffer | undefined>,
): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
  return Promise.all(
    PHOTO_FIELDS.map(async (field) => {
      const stored = request[field];
      const content = await read(stored);
      if (!content) throw new Error(`photo ${stored} of request ${reference} is not stored`);
      return {
        filename: photoFileName(reference, field, stored, language),
        content,
        contentType: stored.endsWith('.png') ? 'image/png' : 'image/jpeg',
      };
    }),
  );
}
