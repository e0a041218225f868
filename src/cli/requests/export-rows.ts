import type { FormModel } from '../../core/form-model';
import { findText } from '../../core/texts';
import { fieldLabel, languageName, requestValue, type RequestWords } from '../../core/request-words';
import type { RequestForm } from '../../server/revisions/form-revisions';
import type { StoredRequest } from '../../server/storage/records';

/** The portal's own columns, before the requests' fields; their headers are the language file's `export.columns`. */
const PORTAL_COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale'] as const;

type PortalColumn = (typeof PORTAL_COLUMNS)[number];

/**
 * A column: one of the portal's, or a request field's; kept apart, so a field can never take the portal's place.
 * A field's column holds values of one kind (`kind`; none for a request whose form is unknown): a name a later
 * form reuses for something else (a photo, a choice, a number) gets a column of its own.
 */
export type ExportColumn = { portal: PortalColumn } | { field: string; kind?: string };

/** What a form's field holds: a photo, a choice, or its JSON type. */
function fieldKind(model: FormModel, field: string): string {
  if (model.photos.some((photo) => photo.target === field)) return 'photo';
  const property = model.schema.properties[field] as { enum?: unknown[]; type?: unknown } | undefined;
  return property?.enum ? 'choice' : String(property?.type ?? 'string');
}

/** What names a field's column: a form that has it, read in that form's words. */
type Labeller = Pick<RequestForm, 'model' | 'languages'>;

/**
 * The columns of an export, gathered from the requests it holds: the portal's, then every field of
 * the forms the requests were sent with, each once, in a stable order: today's forms' fields (by
 * form name, in schema order, as exports before revisions had them), then fields only earlier revisions had, then fields of requests whose
 * form is unknown, each in the order the oldest request holding it shows them.
 */
export class ExportColumns {
  /** By field and kind (key `field kind`). */
  private readonly labellers = new Map<string, { field: string; kind: string; by: Labeller }>();
  private readonly earlier = new Map<string, { field: string; kind: string; by: Labeller }>();
  private readonly unknown = new Set<string>();

  constructor(today: ReadonlyMap<string, FormModel>, languages: RequestForm['languages']) {
    for (const [, model] of [...today].sort(([a], [b]) => a.localeCompare(b))) {
      for (const field of model.requestFields) {
        const kind = fieldKind(model, field);
        if (!this.labellers.has(`${field} ${kind}`)) this.labellers.set(`${field} ${kind}`, { field, kind, by: { model, languages } });
      }
    }
  }

  /** Takes in a stored request: the fields of its form (the newest revision names a field no form has today), else its own keys. */
  add(row: StoredRequest, form: RequestForm | undefined): void {
    if (!form) {
      for (const field of Object.keys(JSON.parse(row.payload) as object)) this.unknown.add(field);
      return;
    }
    for (const field of form.model.requestFields) {
      const kind = fieldKind(form.model, field);
      const key = `${field} ${kind}`;
      if (this.labellers.has(key)) continue;
      // Insertion order stays the first appearance; the label follows the newest revision.
      this.earlier.delete(key);
      this.earlier.set(key, { field, kind, by: form });
    }
  }

  get columns(): ExportColumn[] {
    const known = [...this.labellers.values(), ...this.earlier.values()];
    const fields: ExportColumn[] = [...known.map(({ field, kind }) => ({ field, kind })), ...[...this.unknown].filter((f) => !known.some((k) => k.field === f)).map((field) => ({ field }))];
    return [...PORTAL_COLUMNS.map((portal) => ({ portal })), ...fields];
  }

  /**
   * The headers in the staff's language: the portal's words for its columns (`export.columns`), a field's label
   * as its form gives it; labels two columns share (a field renamed, its label kept) are told apart by the field's name.
   */
  header(language: string, languages: RequestForm['languages']): string[] {
    const labels = this.columns.map((column) => {
      if ('portal' in column) return findText(languages, language, `export.columns.${column.portal}`) ?? column.portal;
      const by = column.kind === undefined ? undefined : (this.labellers.get(`${column.field} ${column.kind}`) ?? this.earlier.get(`${column.field} ${column.kind}`))?.by;
      return fieldLabel(by?.model, column.field, { languages: by?.languages ?? languages, language });
    });
    const columns = this.columns;
    const fieldsLabelled = (label: string) => new Set(columns.flatMap((c, j) => ('field' in c && labels[j] === label ? [c.field] : [])));
    const named = labels.map((label, i) => {
      const column = columns[i];
      return 'field' in column && fieldsLabelled(label).size > 1 ? `${label} (${column.field})` : label;
    });
    // The same name twice: a field whose name a later form gave to something else.
    return named.map((label, i) => (named.indexOf(label) === i ? label : `${label} (${named.slice(0, i + 1).filter((l) => l === label).length})`));
  }
}

/** A cell for the staff: text as the customer typed it or as the desk mail words it, or a number the form took as one. */
export type SheetCell = string | number | undefined;

/**
 * What starts a formula for some spreadsheet: = + - @ (also their full-width forms, which some read as
 * the same), tab or CR, behind any run of blanks a spreadsheet may skip first (spaces of every width, a
 * no-break space, zero-width ones, a byte-order mark, line breaks).
 */
const FORMULA_START = /^[\s\u180e\u200b-\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20\t\r]/u;

/**
 * A CSV cell as OWASP advises against CSV injection: a cell that starts a
 * formula (FORMULA_START) gets a leading apostrophe, so a spreadsheet shows
 * it as text (a phone number +31… reads as '+31…), and every cell is quoted.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '""';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * A stored request as one record for scripts (JSON lines): the portal's keys (the form under `variant`, the key
 * scripts already read), and the request's fields as stored under `request`.
 */
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
  return columns.map((column, index) => {
    if ('portal' in column) return portal[column.portal];
    // A value goes under its field's column of its kind; a request of an unknown form, under its field's first column.
    const mine = form ? column.kind === fieldKind(form.model, column.field) : columns.findIndex((c) => 'field' in c && c.field === column.field) === index;
    if (!mine) return undefined;
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
