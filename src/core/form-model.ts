import type { AddressLookupPart, FieldRole } from './field-roles';
import type { FormSchema, UiSchema } from './form-schema';
import type { RepairRequest, FormName } from './types';

/** A photo picker (a form-only field the uiSchema shows with the photoUpload field) and the request field its stored name goes to. */
export interface PhotoField {
  picker: string;
  target: string;
}

/** A fieldset of the form: `ui:options.sections` of the uiSchema's root. */
export interface Section {
  id: string;
  fields: string[];
}

/** What differs between forms' behaviour, as options of the uiSchema's root (`ui:options`); all off by default. */
export interface FormOptions {
  /** A panel above the form lists every field in error (spec §4, the extended form). */
  errorSummary: boolean;
  /** Inputs stop at the schema's maxLength, so no max-length message shows (spec §5, the extended form). */
  stopAtMaxLength: boolean;
}

/**
 * One form as page, server and CLI use it: its assembled schema and
 * uiSchema, and what they say about each field (order, photos, roles,
 * options), read once here so that no code knows a field by its name.
 */
export interface FormModel {
  name: FormName;
  schema: FormSchema;
  uiSchema: UiSchema;
  options: FormOptions;
  sections: Section[];
  /** Fields in the order the form shows them (a photo picker stands for itself). */
  fieldOrder: string[];
  /** The request's fields as sent and stored: every property that is not form-only. */
  requestFields: string[];
  /** Every photo, in form order. */
  photos: PhotoField[];
  /** Target → its picker, to show a hidden target's errors on the picker the customer sees. */
  aliases: Record<string, string>;
  /** The field holding each role, where the form has one (the first, for date-text). */
  roles: Partial<Record<FieldRole, string>>;
  /** The field that gives the address lookup each part, or takes it (`ui:options.addressLookup`). */
  lookup: Partial<Record<AddressLookupPart, string>>;
}

type UiEntry = { 'ui:field'?: string; 'ui:widget'?: string; 'ui:options'?: Record<string, unknown> } | undefined;

const uiEntry = (uiSchema: UiSchema, name: string): UiEntry =>
  Object.hasOwn(uiSchema, name) && typeof uiSchema[name] === 'object' ? (uiSchema[name] as UiEntry) : undefined;

/** The uiSchema's root options: sections and the behaviour switches. */
function rootOptions(uiSchema: UiSchema): { sections: Section[]; options: FormOptions } {
  const raw = (uiSchema['ui:options'] ?? {}) as Partial<FormOptions> & { sections?: Section[] };
  return {
    sections: (raw.sections ?? []).map((s) => ({ id: s.id, fields: [...s.fields] })),
    options: { errorSummary: raw.errorSummary === true, stopAtMaxLength: raw.stopAtMaxLength === true },
  };
}

export function formModel(formName: FormName, schema: FormSchema, uiSchema: UiSchema): FormModel {
  const { sections, options } = rootOptions(uiSchema);
  const names = Object.keys(schema.properties);
  const requestFields = names.filter((name) => !schema.properties[name].formOnly);
  const fieldOrder = sections.flatMap((s) => s.fields);
  const photos = fieldOrder.flatMap((picker): PhotoField[] => {
    const entry = uiEntry(uiSchema, picker);
    const target = entry?.['ui:options']?.target;
    return entry?.['ui:field'] === 'photoUpload' && typeof target === 'string' ? [{ picker, target }] : [];
  });
  // npm run validate refuses unknown roles and lookup parts, and a single role given twice.
  const roles: Partial<Record<FieldRole, string>> = {};
  const lookup: Partial<Record<AddressLookupPart, string>> = {};
  for (const name of names) {
    const role = schema.properties[name].role as FieldRole | undefined;
    if (role) roles[role] ??= name;
    const part = uiEntry(uiSchema, name)?.['ui:options']?.addressLookup;
    if (typeof part === 'string') lookup[part as AddressLookupPart] = name;
  }
  return {
    name: formName,
    schema,
    uiSchema,
    options,
    sections,
    fieldOrder,
    requestFields,
    photos,
    aliases: Object.fromEntries(photos.map((p) => [p.target, p.picker])),
    roles,
    lookup,
  };
}

/** The request's fields in form order (a photo picker stands for its target), then the ones the form does not show. */
export function requestOrder({ fieldOrder, requestFields, photos }: Pick<FormModel, 'fieldOrder' | 'requestFields' | 'photos'>): string[] {
  const targetOf = new Map(photos.map((p) => [p.picker, p.target]));
  const shown = fieldOrder.map((name) => targetOf.get(name) ?? name).filter((name) => requestFields.includes(name));
  return [...new Set([...shown, ...requestFields])];
}

/** Personal data (`personal`, and both e-mail roles): never logged. */
export function personalFields({ schema }: Pick<FormModel, 'schema'>): string[] {
  return Object.keys(schema.properties).filter((name) => {
    const p = schema.properties[name];
    return p.personal === true || p.role === 'customer-email' || p.role === 'dealer-email';
  });
}

/** A request's text in the field of `role`, if the form has one and it holds a text. */
export function roleValue(model: Pick<FormModel, 'roles'>, request: RepairRequest, role: FieldRole): string | undefined {
  const field = model.roles[role];
  const value = field === undefined ? undefined : request[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The stored names of a request's photos, with the field each fills, in form order (those it has). */
export function requestPhotos(model: Pick<FormModel, 'photos'>, request: RepairRequest): { field: string; name: string }[] {
  return model.photos.flatMap(({ target }) => {
    const name = request[target];
    return typeof name === 'string' && name !== '' ? [{ field: target, name }] : [];
  });
}

/** Forms by name (the caller assembles them from schemas/forms). */
export type FormModels = ReadonlyMap<FormName, FormModel>;

/** The photo rules (fileRules) of a form's pickers. */
export interface PhotoRules {
  maxBytes: number;
  types: string[];
}

/**
 * The one photo rule of every form: an upload precedes the form it is
 * for, so the forms must agree (`npm run validate` says so); null when no
 * form has photos.
 */
export function uploadRules(forms: Iterable<FormModel>): PhotoRules | null {
  const rules = new Map<string, PhotoRules>();
  for (const form of forms) {
    for (const { picker } of form.photos) {
      const found = form.schema.properties[picker]?.fileRules as PhotoRules | undefined;
      if (found) rules.set(JSON.stringify({ maxBytes: found.maxBytes, types: [...found.types].sort() }), found);
    }
  }
  if (rules.size > 1) throw new Error('The forms disagree on photo limits (fileRules); the upload route needs one rule');
  return [...rules.values()][0] ?? null;
}
