import { FORM_KEY, FORMER_FORM_KEY } from '../brand-file.ts';
import { isRecord } from '../validate/files.ts';

export interface CopyNames {
  fromId: string;
  fromName: string;
  id: string;
  name: string;
}

const EXAMPLE_HOST = 'www.example.com';
const PLACEHOLDER = '(voorbeeld)';

/**
 * A brand file's data under a new id. Values that still belong to the old
 * brand or are not real (web addresses, footer details, dropdown names)
 * become obvious placeholders, and "notes" lists what to replace.
 */
export function copyBrandData(source: Record<string, unknown>, names: CopyNames, assets: { logo: string; favicon: string }): Record<string, unknown> {
  const copy = structuredClone(source);
  const replaceNames = (text: string) => text.split(names.fromName).join(names.name).split(names.fromId).join(names.id);
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith('https://') ? exampleUrl(value, names) : replaceNames(value);
    if (Array.isArray(value)) return value.map(rewrite);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  const data = renameFormerKey(rewrite(copy) as Record<string, unknown>);
  data.id = names.id;
  data.name = names.name;
  data.logo = assets.logo;
  data.favicon = assets.favicon;
  if (isRecord(data.footer)) data.footer = placeholderFooter(data.footer, names.name);
  // Never the old brand's desk or webhook (its secret belongs to that brand's ticketing system).
  if (isRecord(data.serviceDesk)) data.serviceDesk = { emails: [`servicedesk@${names.id}.example.com`], language: data.serviceDesk.language };
  if (isRecord(data.brandField) && Array.isArray(data.brandField.options)) {
    data.brandField.options = data.brandField.options.map((_option, i) => `${names.name} ${i + 1} ${PLACEHOLDER}`);
  }
  data.notes =
    `Made by npm run brand -- new ${names.id} --like ${names.fromId}. Placeholders to replace before going live: ` +
    `the colours under theme (still those of ${names.fromName}), the logo and favicon (copies of ${names.fromName}'s), ` +
    `the footer details marked ${PLACEHOLDER}, every ${EXAMPLE_HOST} web address, ` +
    `the service desk's e-mail under serviceDesk (and its webhook, if it has one)` +
    (isRecord(data.brandField) && Array.isArray(data.brandField.options) ? ', the dropdown options under brandField' : '') +
    '. Remove this note once none are left.';
  return { $schema: data.$schema, notes: data.notes, ...data };
}

/** A copy of a brand that still says "variant" says "form", in the same place. */
function renameFormerKey(data: Record<string, unknown>): Record<string, unknown> {
  if (Object.hasOwn(data, FORM_KEY)) return data;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key === FORMER_FORM_KEY ? FORM_KEY : key, value]));
}

/** https://www.example.com/fratelli/nl/privacybeleid → https://www.example.com/acme/nl/privacybeleid. */
function exampleUrl(url: string, names: CopyNames): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `https://${EXAMPLE_HOST}/${names.id}`;
  }
  const path = parsed.pathname.split(names.fromId).join(names.id);
  if (parsed.hostname === EXAMPLE_HOST) return `https://${EXAMPLE_HOST}${path}`;
  // A real address of the old brand: keep only which site it was, e.g. /acme/facebook.
  const site = parsed.hostname.replace(/^www\./, '').split('.')[0];
  return `https://${EXAMPLE_HOST}/${names.id}/${site}`;
}

function placeholderFooter(footer: Record<string, unknown>, name: string): Record<string, unknown> {
  const result = { ...footer };
  if ('companyName' in result) result.companyName = `${name} ${PLACEHOLDER}`;
  if ('address' in result) result.address = 'Voorbeeldstraat 1, 1234 AB Voorbeeldstad';
  if ('phone' in result) result.phone = '+31 00 000 0000';
  return result;
}

/** JSON as people write it: two spaces, and short lists of plain values on one line. */
export function formatBrandJson(data: unknown): string {
  return (
    JSON.stringify(data, null, 2).replace(/\[\n\s+((?:"[^"\n]*"|[-\d.]+|true|false|null)(?:,\n\s+(?:"[^"\n]*"|[-\d.]+|true|false|null))*)\n\s*\]/g, (_m, items: string) =>
      `[${items.split(/,\n\s+/).join(', ')}]`,
    ) + '\n'
  );
}
