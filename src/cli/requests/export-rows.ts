import type { FormModel } from '../../core/form-model';
import { findText } from '../../core/texts';
import { fieldLabel, languageName, requestValue, type RequestWords } from '../../server/delivery/mail/request-words';
import type { RequestForm } from '../../server/revisions/form-revisions';
import type { StoredRequest } from '../../server/storage/records';

/** The portal's own columns, before the requests' fields; their headers are the language file's `export.columns`. */
const PORTAL_COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale'] as const;

type PortalColumn = (typeof PORTAL_COLUMNS)[number];

/** A column: one of the portal's, or a request field's; kept apart, so a field can never take the portal's place. */
export type ExportColumn = { portal: PortalColumn } | { field: string };

/** What names a field's column: a form that has it, read in that form's words. */
type Labeller = Pick<RequestForm, 'model' | 'languages'>;

/**
 * The columns of an export, gathered from the requests it holds: the portal's, then every field of
 * the forms the requests were sent with, each once, in a stable order: today's forms' fields (by
 * form name, in schema order, as exports before revisions had them), then fields only earlier revisions had, then fields of requests whose
 * form is unknown, each in the order the oldest request holding it shows them.
 */
export class ExportColumns {
  private readonly labellers = new Map<string, Labeller>();
  private readonly earlier = new Map<string, Labeller>();
  private readonly unknown = new Set<string>();

  constructor(today: ReadonlyMap<string, FormModel>, languages: RequestForm['languages']) {
    for (const [, model] of [...today].sort(([a], [b]) => a.localeCompare(b))) {
      for (const field of model.requestFields) if (!this.labellers.has(field)) this.labellers.set(field, { model, languages });
    }
  }

  /** Takes in a stored request: the fields of its form (the newest revision names a field no form has today), else its own keys. */
  add(row: StoredRequest, form: RequestForm | undefined): void {
    if (!form) {
      for (const field of Object.keys(JSON.parse(row.payload) as object)) if (!this.labellers.has(field) && !this.earlier.has(field)) this.unknown.add(field);
      return;
    }
    for (const field of form.model.requestFields) {
      if (this.labellers.has(field)) continue;
      // Insertion order stays the first appearance; the label follows the newest revision.
      this.earlier.delete(field);
      this.earlier.set(field, form);
    }
  }

  get columns(): ExportColumn[] {
    const fields = [...this.labellers.keys(), ...this.earlier.keys(), ...[...this.unknown].filter((f) => !this.labellers.has(f) && !this.earlier.has(f))];
    return [...PORTAL_COLUMNS.map((portal) => ({ portal })), ...fields.map((field) => ({ field }))];
  }

  /** The headers in the staff's language: the portal's words for its columns (`export.columns`), a field's label as its form gives it. */
  header(language: string, languages: RequestForm['languages']): string[] {
    return this.columns.map((column) => {
      if ('portal' in column) return findText(languages, language, `export.columns.${column.portal}`) ?? column.portal;
      const by = this.labellers.get(column.field) ?? this.earlier.get(column.field);
      return fieldLabel(by?.model, column.field, { languages: by?.languages ?? languages, language });
    });
  }
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

/** A stored request as one record for scripts (JSON lines): the portal's keys, and the request's fields as stored under `request`. */
export function exportRecord(row: StoredRequest, createdAt: (ms: number) => string): Record<string, unknown> {
  return {
    reference: row.reference,
    created_at: createdAt(row.created_at),
    brand_id: row.brand,
    variant: row.variant,
    form_revision: row.form_revision,
    locale: row.locale,
    request: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/**
 * A stored request as the staff read it, column by column, by the form it was sent with: the words
 * the desk mail uses (country and language names, an option's label, yes or no, dates written out,
 * a photo by the name it has as the desk mail's attachment), the form's name in words
 * (`export.variants`, else its name), every other text as typed; `createdAt` writes the time.
 */
export function sheetRow(
  columns: readonly ExportColumn[],
  row: StoredRequest,
  form: RequestForm | undefined,
  words: RequestWords,
  createdAt: (ms: number) => string,
): SheetCell[] {
  const request = JSON.parse(row.payload) as Record<string, unknown>;
  const own: RequestWords = { languages: form?.languages ?? words.languages, language: words.language };
  const portal: Record<PortalColumn, SheetCell> = {
    reference: row.reference,
    created_at: createdAt(row.created_at),
    brand_id: row.brand,
    variant: findText(own.languages, own.language, `export.variants.${row.variant}`) ?? row.variant,
    locale: languageName(row.locale, own),
  };
  return columns.map((column) => {
    if ('portal' in column) return portal[column.portal];
    const value = request[column.field];
    // A number stays one (the house number); everything else is text, as the desk mail shows it.
    if (typeof value === 'number') return value;
    // A request whose form is unknown still exports its values as stored.
    return form ? requestValue(form.model, column.field, request, row.reference, own) : value === undefined || value === null ? undefined : String(value);
  });
}

export function csvLine(cells: readonly SheetCell[], separator: string): string {
  return cells.map(csvCell).join(separator);
}
