import type { FormModel } from '../../core/form-model';
import { findText } from '../../core/texts';
import { fieldLabel, type RequestWords } from '../../server/delivery/mail/request-words';
import type { StoredRequest } from '../../server/storage/records';

/** The portal's own columns, before the requests' fields; their headers are the language file's `export.columns`. */
const PORTAL_COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale'] as const;

/** The columns: the portal's, then every request field of every variant, in schema order, for stable CSV columns. */
export function exportColumns(forms: Iterable<FormModel>): string[] {
  return [...new Set([...PORTAL_COLUMNS, ...[...forms].flatMap((form) => form.requestFields)])];
}

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

/** The header row in the staff's language: the portal's words for its columns, the desk's labels for the form's fields. */
export function csvHeader(columns: readonly string[], forms: Iterable<FormModel>, words: RequestWords, separator: string): string {
  const models = [...forms];
  const label = (column: string) =>
    findText(words.languages, words.language, `export.columns.${column}`) ??
    fieldLabel(models.find((m) => m.requestFields.includes(column)), column, words);
  return columns.map((column) => csvCell(label(column))).join(separator);
}

export function csvLine(columns: readonly string[], record: Record<string, unknown>, separator: string): string {
  return columns.map((column) => csvCell(record[column])).join(separator);
}
