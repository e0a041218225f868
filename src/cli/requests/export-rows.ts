import type { FormModel } from '../../core/form-model';
import { findText } from '../../core/texts';
import { fieldLabel, languageName, requestValue, type RequestWords } from '../../server/delivery/mail/request-words';
import type { StoredRequest } from '../../server/storage/records';

/** The portal's own columns, before the requests' fields; their headers are the language file's `export.columns`. */
const PORTAL_COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale'] as const;

/** The columns: the portal's, then every request field of every variant, in schema order, for stable CSV columns. */
export function exportColumns(forms: Iterable<FormModel>): string[] {
  return [...new Set([...PORTAL_COLUMNS, ...[...forms].flatMap((form) => form.requestFields)])];
}

/** A cell for the staff: text as the customer typed it or as the desk mail words it, or a number the form took as one. */
export type SheetCell = string | number | undefined;

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

/** A stored request as one record for scripts (JSON lines): the portal's columns, then the request's fields as stored. */
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

/** The headers in the staff's language: the portal's words for its columns (`export.columns`), the desk's labels for the form's fields. */
export function sheetHeader(columns: readonly string[], forms: Iterable<FormModel>, words: RequestWords): string[] {
  const models = [...forms];
  return columns.map(
    (column) =>
      findText(words.languages, words.language, `export.columns.${column}`) ??
      fieldLabel(models.find((m) => m.requestFields.includes(column)), column, words),
  );
}

/**
 * A stored request as the staff read it, column by column: the words the desk mail uses (country and
 * language names, yes or no, dates written out, a photo by the name it has as the desk mail's attachment),
 * the form's name in words (`export.variants`, else its name), every other text as typed; `createdAt` writes the time.
 */
export function sheetRow(
  columns: readonly string[],
  row: StoredRequest,
  model: FormModel | undefined,
  words: RequestWords,
  createdAt: (ms: number) => string,
): SheetCell[] {
  const request = JSON.parse(row.payload) as Record<string, unknown>;
  const portal: Record<(typeof PORTAL_COLUMNS)[number], SheetCell> = {
    reference: row.reference,
    created_at: createdAt(row.created_at),
    brand_id: row.brand,
    variant: findText(words.languages, words.language, `export.variants.${row.variant}`) ?? row.variant,
    locale: languageName(row.locale, words),
  };
  return columns.map((column) => {
    if (Object.hasOwn(portal, column)) return portal[column as keyof typeof portal];
    const value = request[column];
    // A number stays one (the house number); everything else is text, as the desk mail shows it.
    if (typeof value === 'number') return value;
    // A form no longer served (its file removed) still exports its values as stored.
    return model ? requestValue(model, column, request, row.reference, words) : value === undefined || value === null ? undefined : String(value);
  });
}

export function csvLine(cells: readonly SheetCell[], separator: string): string {
  return cells.map(csvCell).join(separator);
}
