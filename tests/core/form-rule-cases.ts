import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Brand, RepairFormData, FormName } from '../../src/core/types';
import { SPEC_BRANDS_DIR } from '../support/data-folders';
import { form, portal } from '../support/portal-data';
import { sampleFormData } from '../support/sample-request';

/** A brand of each of the spec's forms: Ilve types its brand, Kuppersbusch's is fixed. */
const BRAND_OF: Record<FormName, string> = { simple: 'ilve', extended: 'kuppersbusch' };

/** The customer of the cases below: Schiphol, the Netherlands (where a postal code is 4 digits and 2 letters). */
const CUSTOMER = {
  last_name: 'Jan Jansen',
  street_name: 'Evert van de Beekstraat',
  house_number: 202,
  postal_code: '1118CP',
  city: 'Schiphol',
  phone_number: '0201234567',
  description: 'De oven wordt niet warm.',
};

/** A complete, valid request of each of the spec's forms as the page holds it (photos already uploaded), made from the form's model. */
export function validData(variant: FormName): RepairFormData {
  const brand = JSON.parse(readFileSync(join(SPEC_BRANDS_DIR, `${BRAND_OF[variant]}.json`), 'utf8')) as Brand;
  return sampleFormData(form(variant), portal.rules, {
    brand,
    locale: 'nl',
    country: 'nl',
    photos: ['a1b2c3.jpg', 'd4e5f6.png'],
    chosen: ['plaatje.jpg', 'bon.png'],
    email: 'jan@example.com',
    requiredOnly: true,
    answers: CUSTOMER,
  });
}

export interface RuleCase {
  name: string;
  variants: FormName[];
  patch: Record<string, unknown>;
  /** Field → expected nl messages per variant; {} = valid. */
  expect: Partial<Record<FormName, Record<string, string[]>>>;
}

const both: FormName[] = ['simple', 'extended'];
const valid = { simple: {}, extended: {} };
const one = (field: string, simple: string, extended: string) => ({
  simple: { [field]: [simple] },
  extended: { [field]: [extended] },
});

export const ruleCases: RuleCase[] = [
  // Postal code follows the country
  { name: 'nl postal code without space', variants: both, patch: { postal_code: '1118CP' }, expect: valid },
  { name: 'nl postal code with space, lower case', variants: both, patch: { postal_code: '1118 cp' }, expect: valid },
  { name: 'nl postal code starting with 0', variants: both, patch: { postal_code: '0118CP' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'nl postal code with one letter', variants: both, patch: { postal_code: '1118C' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'nl postal code with two spaces', variants: both, patch: { postal_code: '1118  CP' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'nl postal code of digits only', variants: both, patch: { postal_code: '1000' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'be postal code of four digits', variants: both, patch: { country: 'be', postal_code: '1000' }, expect: valid },
  { name: 'be postal code of five digits', variants: both, patch: { country: 'be', postal_code: '10000' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'be postal code in Dutch form', variants: both, patch: { country: 'be', postal_code: '1118CP' }, expect: one('postal_code', 'Ongeldige postcode', 'Invalid postal code') },
  { name: 'fr postal code: length only', variants: both, patch: { country: 'fr', postal_code: 'ABC-12' }, expect: valid },
  { name: 'lu postal code: length only', variants: both, patch: { country: 'lu', postal_code: 'L-1234' }, expect: valid },
  { name: 'fr postal code too long', variants: ['simple'], patch: { country: 'fr', postal_code: '12345678901' }, expect: { simple: { postal_code: ['Maximaal 10 tekens toegestaan'] } } },
  { name: 'unknown country', variants: both, patch: { country: 'zz' }, expect: one('country', 'Ongeldige waarde', 'Invalid value') },
  // House number
  { name: 'house number 1', variants: both, patch: { house_number: 1 }, expect: valid },
  { name: 'house number 99999', variants: both, patch: { house_number: 99999 }, expect: valid },
  { name: 'house number 0', variants: both, patch: { house_number: 0 }, expect: one('house_number', 'Invalid number', 'Invalid number') },
  { name: 'house number 100000', variants: both, patch: { house_number: 100000 }, expect: one('house_number', 'Invalid number', 'Invalid number') },
  { name: 'house number 1.5', variants: both, patch: { house_number: 1.5 }, expect: one('house_number', 'Invalid number', 'Invalid number') },
  { name: 'house number empty', variants: both, patch: { house_number: undefined }, expect: one('house_number', 'Dit veld is verplicht', 'This field is required') },
  // E-mail
  { name: 'e-mail without @', variants: both, patch: { client_email: 'jan.example.com' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'dealer e-mail may be empty', variants: ['extended'], patch: { notification: undefined }, expect: valid },
  { name: 'dealer e-mail valid', variants: ['extended'], patch: { notification: 'dealer@example.com' }, expect: valid },
  { name: 'dealer e-mail invalid', variants: ['extended'], patch: { notification: 'dealer' }, expect: { extended: { notification: ['must match format "email"'] } } },
  // Internationalised addresses (RFC 6531): letters of any script in the local part and the domain
  { name: 'e-mail at an internationalised domain', variants: both, patch: { client_email: 'jan@müller.be' }, expect: valid },
  { name: 'e-mail with a non-ASCII local part', variants: both, patch: { client_email: 'jöran.ølstad@例え.jp' }, expect: valid },
  { name: 'e-mail at a domain already in punycode', variants: both, patch: { client_email: 'jan@xn--mller-kva.be' }, expect: valid },
  { name: 'e-mail in Cyrillic', variants: both, patch: { client_email: 'иван@почта.рф' }, expect: valid },
  { name: 'dealer e-mail at an internationalised domain', variants: ['extended'], patch: { notification: 'info@bäckerei-groß.de' }, expect: valid },
  { name: 'e-mail with a space in an internationalised domain', variants: both, patch: { client_email: 'jan@mül ler.be' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'e-mail with a right-to-left override', variants: both, patch: { client_email: 'jan\u202e@müller.be' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'e-mail with a zero-width space', variants: both, patch: { client_email: 'jan@müller\u200b.be' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'e-mail with two @', variants: both, patch: { client_email: 'jan@@müller.be' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'e-mail at a domain without a dot', variants: both, patch: { client_email: 'jan@müller' }, expect: one('client_email', 'moet overeenkomen met het formaat "email"', 'must match format "email"') },
  { name: 'dealer e-mail at a domain starting with a hyphen', variants: ['extended'], patch: { notification: 'a@-müller.be' }, expect: { extended: { notification: ['must match format "email"'] } } },
  // Photos
  { name: 'photo of exactly 32 MB', variants: both, patch: { upload_1: { name: 'a.jpg', size: 33554432, type: 'image/jpeg' } }, expect: valid },
  { name: 'photo over 32 MB', variants: both, patch: { upload_1: { name: 'a.jpg', size: 33554433, type: 'image/jpeg' } }, expect: one('upload_1', 'File too large', 'File too large') },
  { name: 'photo as GIF', variants: both, patch: { upload_2: { name: 'a.gif', size: 10, type: 'image/gif' } }, expect: one('upload_2', 'Invalid file type', 'Invalid file type') },
  { name: 'photo type that is a prefix of an allowed one', variants: both, patch: { upload_2: { name: 'a', size: 10, type: 'image/jp' } }, expect: one('upload_2', 'Invalid file type', 'Invalid file type') },
  { name: 'photo too large and of a wrong type', variants: ['simple'], patch: { upload_1: { name: 'a.gif', size: 40_000_000, type: 'image/gif' } }, expect: { simple: { upload_1: ['File too large', 'Invalid file type'] } } },
  { name: 'photo not uploaded: required on its picker', variants: both, patch: { image1: undefined }, expect: one('upload_1', 'Dit veld is verplicht', 'This field is required') },
  // Terms
  { name: 'terms unticked', variants: ['extended'], patch: { isAkkoord: false }, expect: { extended: { isAkkoord: ['This field is required'] } } },
  { name: 'terms missing', variants: ['extended'], patch: { isAkkoord: undefined }, expect: { extended: { isAkkoord: ['This field is required'] } } },
  // Optional fields of the extended form
  { name: 'extended: brand, type, serial number, purchase date optional', variants: ['extended'], patch: { brand: undefined, type: undefined, serial_number: undefined, purchase_date: undefined }, expect: valid },
  { name: 'simple: brand required', variants: ['simple'], patch: { brand: undefined }, expect: { simple: { brand: ['Dit veld is verplicht'] } } },
  // Blank is not an answer
  { name: 'name of only spaces', variants: both, patch: { last_name: '   ' }, expect: one('last_name', 'Dit veld is verplicht', 'This field is required') },
  { name: 'description of only line breaks and tabs', variants: both, patch: { description: ' \n\t\r\n ' }, expect: one('description', 'Dit veld is verplicht', 'This field is required') },
  { name: 'city of no-break and ideographic spaces', variants: both, patch: { city: '\u00a0\u3000' }, expect: one('city', 'Dit veld is verplicht', 'This field is required') },
  { name: 'simple: type of only spaces', variants: ['simple'], patch: { type: '  ' }, expect: { simple: { type: ['Dit veld is verplicht'] } } },
  { name: 'e-mail of only spaces: required, not a format error', variants: both, patch: { client_email: '   ' }, expect: one('client_email', 'Dit veld is verplicht', 'This field is required') },
  { name: 'a name with spaces around it', variants: both, patch: { last_name: '  Jan  ' }, expect: valid },
  // Characters no one types
  { name: 'NUL in a name', variants: both, patch: { last_name: 'Jan\u0000' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'line break in a one-line field', variants: both, patch: { street_name: 'Dorpsstraat\r\nBcc: x@example.com' }, expect: one('street_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'escape character in a phone number', variants: both, patch: { phone_number: '06\u001b[31m' }, expect: one('phone_number', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'C1 control in an optional field', variants: both, patch: { house_number_suffix: 'A\u0085' }, expect: one('house_number_suffix', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'lone high surrogate', variants: both, patch: { description: 'kapot \ud83d' }, expect: one('description', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'lone low surrogate', variants: both, patch: { city: '\ude00Utrecht' }, expect: one('city', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'emoji, accents and line breaks in a description', variants: both, patch: { description: 'Oven 😀 kapot,\r\n\tréparation nécessaire' }, expect: valid },
  { name: 'NUL between spaces: refused for its character', variants: ['simple'], patch: { serial_number: ' \u0000 ' }, expect: { simple: { serial_number: ['Ongeldige tekens'] } } },
  // Names of nothing: invisible and direction-changing characters are refused with the invalid-characters message
  { name: 'name of only a zero-width space', variants: both, patch: { last_name: '\u200b' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'name of only a Hangul filler (a letter by category)', variants: both, patch: { last_name: '\u3164' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'name of only a braille blank', variants: both, patch: { last_name: '\u2800' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'name of a right-to-left override', variants: both, patch: { last_name: '\u202e' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'right-to-left override turning a name around', variants: both, patch: { last_name: 'Jan \u202esnesnaJ' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'bidi isolates around a city', variants: both, patch: { city: '\u2066Utrecht\u2069' }, expect: one('city', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'left-to-right mark in a street', variants: both, patch: { street_name: 'Dorpsstraat\u200e' }, expect: one('street_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'Arabic letter mark in a name', variants: both, patch: { last_name: '\u061cمحمد' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'byte order mark before a phone number', variants: both, patch: { phone_number: '\ufeff0612345678' }, expect: one('phone_number', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'zero-width joiner between letters', variants: both, patch: { last_name: 'Ja\u200dn' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'word joiner in a description', variants: both, patch: { description: 'Oven\u2060kapot' }, expect: one('description', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'half-width Hangul filler in a suffix', variants: both, patch: { house_number_suffix: 'A\uffa0' }, expect: one('house_number_suffix', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'Hangul choseong filler in a city', variants: both, patch: { city: '\u115fGent' }, expect: one('city', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'soft hyphen in a name', variants: both, patch: { last_name: 'Jan\u00adsen' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'tag characters in a description', variants: both, patch: { description: 'kapot\u{e0041}\u{e0042}' }, expect: one('description', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'variation selector after a letter', variants: both, patch: { last_name: 'Jan\ufe0f' }, expect: one('last_name', 'Ongeldige tekens', 'Invalid characters') },
  { name: 'line separator in a one-line field', variants: both, patch: { city: 'Utrecht\u2028Bcc' }, expect: one('city', 'Ongeldige tekens', 'Invalid characters') },
  // A required text says something: at least one letter or digit
  { name: 'name of punctuation only', variants: both, patch: { last_name: '...' }, expect: one('last_name', 'Dit veld is verplicht', 'This field is required') },
  { name: 'name of an emoji only', variants: both, patch: { last_name: '😀' }, expect: one('last_name', 'Dit veld is verplicht', 'This field is required') },
  { name: 'description of dashes and spaces', variants: both, patch: { description: '- - -\n' }, expect: one('description', 'Dit veld is verplicht', 'This field is required') },
  { name: 'an optional field may say "-" for none', variants: both, patch: { phone_number2: '-' }, expect: valid },
  // Names people have
  { name: 'accents, apostrophes and hyphens in a name', variants: both, patch: { last_name: "Zoë O'Brien-Müller d’Hondt" }, expect: valid },
  { name: 'Arabic name', variants: both, patch: { last_name: 'محمد الأحمد' }, expect: valid },
  { name: 'Chinese name', variants: both, patch: { last_name: '王小明' }, expect: valid },
  { name: 'Vietnamese name in decomposed form', variants: both, patch: { last_name: 'Nguye\u0302\u0303n Va\u0306n An' }, expect: valid },
  { name: 'Hindi name with vowel signs', variants: both, patch: { last_name: 'अनिल कुमार' }, expect: valid },
  { name: 'a name of one letter', variants: both, patch: { last_name: 'Q' }, expect: valid },
  { name: 'emoji sequences joined by zero-width joiners in a description', variants: both, patch: { description: 'Oven kapot 👨‍👩‍👧 🧑🏽‍🔧 🏳️‍🌈 ❤️‍🔥 1️⃣' }, expect: valid },
];

/** [field, limit] of §9; the simple form shows 'Maximaal {limit} tekens toegestaan'. */
export const maxLengths: Record<FormName, [string, number][]> = {
  simple: [
    ['last_name', 80], ['street_name', 80], ['house_number_suffix', 10], ['postal_code', 10], ['city', 50],
    ['phone_number', 20], ['phone_number2', 20], ['brand', 80], ['type', 80], ['serial_number', 80],
    ['purchase_date', 40], ['description', 8000],
  ],
  extended: [
    ['last_name', 80], ['street_name', 80], ['house_number_suffix', 10], ['city', 50], ['phone_number', 20],
    ['phone_number2', 20], ['type', 80], ['serial_number', 80], ['purchase_date', 40], ['install_date', 40],
    ['description', 8000], ['additional_info', 8000],
  ],
};

export const requiredFields: Record<FormName, string[]> = {
  simple: ['last_name', 'street_name', 'house_number', 'postal_code', 'city', 'client_email', 'phone_number', 'brand', 'type', 'serial_number', 'purchase_date', 'description', 'upload_1', 'upload_2'],
  extended: ['last_name', 'street_name', 'house_number', 'postal_code', 'city', 'client_email', 'phone_number', 'description', 'upload_1', 'upload_2', 'isAkkoord'],
};

export function withPatch(variant: FormName, patch: Record<string, unknown>): RepairFormData {
  const data: Record<string, unknown> = { ...validData(variant), ...patch };
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key];
  return data as RepairFormData;
}
