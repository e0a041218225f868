/** Brands, texts and test data for the browser suites, read from the same files their portal is built from (the spec's brands). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { brandFromFile } from '../../../src/core/brand-file';
import type { FormModel, PhotoField } from '../../../src/core/form-model';
import type { Brand, Locale, FormName } from '../../../src/core/types';
import fr from '../../fixtures/schemas/spec/i18n/fr.json';
import nl from '../../fixtures/schemas/spec/i18n/nl.json';
import { fillText } from '../../../src/core/texts';
import { form, messages, portal } from '../../support/portal-data';
import { sampleRequest } from '../../support/sample-request';
import { SPEC_BUILD } from './paths';

export const LOCALES: Locale[] = ['nl', 'fr'];

export const BRANDS: Brand[] = readdirSync(SPEC_BUILD.brandsDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => brandFromFile(JSON.parse(readFileSync(join(SPEC_BUILD.brandsDir, f), 'utf8')) as Record<string, unknown>));

export function brandById(id: string): Brand {
  const brand = BRANDS.find((b) => b.id === id);
  if (!brand) throw new Error(`no brand ${id}`);
  return brand;
}

export const TEXTS: Record<Locale, typeof fr> = { nl, fr };

/** A validation message ('required', 'format.email', …) as the variant says it in the language (schemas/i18n: `validation`), `{{limit}}` filled. */
export function message(variant: FormName, locale: Locale, key: string, limit?: number): string {
  const table = messages(variant, locale);
  return fillText(table(key) ?? table('default') ?? key, { limit });
}

/** Spec §8: the invalid-fields panel of the extended form. */
export const SUMMARY_TEXT: Record<Locale, string> = {
  nl: 'Eén of meerdere velden zijn niet juist ingevuld.',
  fr: "Un ou plusieurs champs n'ont pas été renseignés correctement.",
};
/** upload.chooseAgain: a photo the server no longer held when the form was sent. */
export const CHOOSE_AGAIN_TEXT: Record<Locale, string> = {
  nl: 'Deze foto is niet meer bij ons bewaard. Kies de foto opnieuw.',
  fr: "Cette photo n'est plus conservée chez nous. Choisissez-la à nouveau.",
};

export const SUBMIT_ERROR_TEXT: Record<Locale, string> = {
  nl: 'Er is een fout opgetreden, probeer het opnieuw.',
  fr: "Une erreur s'est produite, veuillez réessayer.",
};
export const SUCCESS_TEXT: Record<Locale, string> = {
  nl: 'Wij hebben uw aanvraag ontvangen en nemen contact met u op voor het maken van een afspraak.',
  fr: 'Nous avons reçu votre demande et vous contacterons pour prendre rendez-vous.',
};
export const CONFIRMATION_SENT_TEXT: Record<Locale, string> = {
  nl: 'Een bevestiging is verstuurd naar',
  fr: 'Une confirmation a été envoyée à',
};
/** The confirmation's label of the reference, and the reference's form (K7QM-4XRT-9P). */
export const REFERENCE_TEXT: Record<Locale, string> = { nl: 'Uw referentie', fr: 'Votre référence' };
export const SHORT_REFERENCE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

export const NOT_FOUND = {
  title: 'Pagina niet gevonden',
  body: 'De pagina die je zoekt bestaat niet of is verplaatst.',
  documentTitle: '404 - Pagina niet gevonden',
};

/** A real, decodable photo: the server re-encodes uploads with sharp, so noise bytes would be refused. */
export async function photo(kind: 'jpeg' | 'png', width = 640, height = 480): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } });
  return kind === 'jpeg' ? base.jpeg({ quality: 80 }).toBuffer() : base.png().toBuffer();
}

export interface PhotoFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export async function photoFiles(): Promise<[PhotoFile, PhotoFile]> {
  return [
    { name: 'typeplaatje.jpg', mimeType: 'image/jpeg', buffer: await photo('jpeg') },
    { name: 'aankoopbon.png', mimeType: 'image/png', buffer: await photo('png', 300, 420) },
  ];
}

let counter = 0;
/** A unique e-mail per test, to find its request in the database and its mail in the outbox. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `e2e-${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The spec's customer in Brussels: their answers where the form asks (the rest is made from the form's rules). */
const CUSTOMER = {
  last_name: 'Jansen',
  street_name: 'Stationsstraat',
  house_number: 12,
  house_number_suffix: 'B',
  postal_code: '1000',
  city: 'Brussel',
  phone_number: '+32 2 123 45 67',
  type: 'HBO 123',
  serial_number: 'SN-0042',
  purchase_date: '12-03-2024',
  install_date: '01-04-2024',
  description: 'De oven wordt niet meer warm.',
};

/** How the page asks for a field: a typed input, a select, a checkbox, a photo picker, or not at all (hidden, or fixed by the brand). */
export type Control = 'text' | 'select' | 'check' | 'photo' | 'none';

export function controlOf(model: FormModel, brand: Pick<Brand, 'brandField'>, name: string): Control {
  const ui = (model.uiSchema[name] ?? {}) as { 'ui:widget'?: string; 'ui:field'?: string };
  const property = model.schema.properties[name];
  if (ui['ui:field'] === 'photoUpload') return 'photo';
  if (ui['ui:widget'] === 'hidden' || !property) return 'none';
  if (name === model.roles.brand) return brand.brandField.mode === 'fixed' ? 'none' : brand.brandField.mode === 'choice' ? 'select' : 'text';
  if (ui['ui:widget'] === 'termsCheckbox' || property.type === 'boolean') return 'check';
  if (ui['ui:widget'] === 'select' || Array.isArray(property.enum)) return 'select';
  return 'text';
}

/** A valid request to the brand from the page /<brand>/<locale>/<country>, made from the brand's form (photo names as given). */
export function validRequest(brand: Brand, email: string, { locale = 'nl', country = 'be', photos }: { locale?: Locale; country?: string; photos?: readonly string[] } = {}) {
  return sampleRequest(form(brand.form), portal.rules, { brand, locale, country, email, photos, requiredOnly: true, answers: CUSTOMER });
}

/** The steps of filling the form for a valid request, in form order: each shown field with its control and value (photos apart). */
export function validSteps(brand: Brand, email: string, page: { locale?: Locale; country?: string } = {}): { name: string; control: Exclude<Control, 'photo' | 'none'>; value: unknown }[] {
  const model = form(brand.form);
  const request = validRequest(brand, email, page);
  return model.fieldOrder.flatMap((name) => {
    const control = controlOf(model, brand, name);
    return request[name] === undefined || control === 'none' || control === 'photo' ? [] : [{ name, control, value: request[name] }];
  });
}

/** What a customer types into the form's text inputs for a valid request (the selects, terms and photos apart). */
export function validValues(brand: Brand, email: string, page: { locale?: Locale; country?: string } = {}): Record<string, string> {
  const model = form(brand.form);
  const request = validRequest(brand, email, page);
  return Object.fromEntries(model.fieldOrder.filter((name) => controlOf(model, brand, name) === 'text' && request[name] !== undefined).map((name) => [name, String(request[name])]));
}

/** The brand's photos (picker → target), in form order. */
export const photosOf = (brand: Pick<Brand, 'form'>): PhotoField[] => form(brand.form).photos;
