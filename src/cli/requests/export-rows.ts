import { formSchemas, requestFields } from '../../core/form-schemas';
import type { Locale } from '../../core/types';
import { deskFieldLabel } from '../../server/delivery/mail/desk-mail';
import type { StoredRequest } from '../../server/storage/records';
import labels from './export-columns.json';

/** Every request field of every variant, in schema order, for stable CSV columns. */
const FIELDS = [...new Set(Object.values(formSchemas).flatMap(({ schema }) => requestFields(schema)))];
const PORTAL_COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale'] as const;
const COLUMNS = [...PORTAL_COLUMNS, ...FIELDS];

/**
 * A CSV cell as OWASP advises against CSV injection: a cell starting with
 * = + - @ tab or CR gets a leading apostrophe, so a spreadsheet shows it as
 * text (a phone number +31… reads as '+31…), and every cell is quoted.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '""';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** A stored request as one record: the portal's columns, then the request's fields; `createdAt` writes the time. */
export function exportRecord(row: StoredRequest, createdAt: (ms: number) => string): Record<string, unknown> {
  return {
    reference: row.reference,
    created_at: createdAt(row.created_at),
    brand_id: row.brand,
    variant: row.variant,
    locale: row.locale,
    ...(JSON.parse(row.payload) as Record<string, unknown>),
  };
}

/** The header row in the staff's language: the desk's words for the form's fields. */
export function csvHeader(language: Locale, separator: string): string {
  const portal: Record<string, string> = labels[language];
  return COLUMNS.map((column) => csvCell(portal[column] ?? deskFieldLabel(column, language))).join(separator);
}

export function csvLine(record: Record<string, unknown>, separator: string): string {
  return COLUMNS.map((column) => csvCell(record[column])).join(separator);
}
