import { formModel, type FormModel } from './form-model';
import type { FormSchema, UiSchema } from './form-schema';
import type { Languages, TextTree } from './texts';
import type { Locale, FormName } from './types';

/**
 * What a stored request keeps of the form it was sent with, so that it is
 * read later as it was sent whatever the form has become: the assembled
 * schema and uiSchema (fields, roles, `personal`, photos and their targets,
 * option values) and, per language, the texts that name its fields, their
 * options, its photos and the form itself. Stored once per distinct content
 * (the server names a revision by a hash of it).
 */
export interface FormRevision {
  variant: FormName;
  schema: FormSchema;
  uiSchema: UiSchema;
  /** Per language, the part of its file about this form (the tables below, only its own keys). */
  texts: Readonly<Record<Locale, TextTree>>;
}

/** Language-file tables keyed by a field's name: its labels and its options' labels. */
const FIELD_TABLES = ['fields', 'fieldsShort', 'mail.desk.labels', 'options'] as const;
/** The desk's names of a request's photos (its attachments' names): keyed by the photo's target. */
const PHOTO_NAMES = 'mail.desk.photoNames';
/** The form's own name for people (the export's Formulier column): keyed by the form's name. */
const FORM_NAMES = 'export.variants';

type Tree = { [key: string]: string | Tree };

function nodeAt(tree: TextTree | undefined, path: string): string | TextTree | undefined {
  let node: string | TextTree | undefined = tree;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

function put(tree: Tree, path: string, value: string | TextTree): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = node[part] = typeof next === 'object' ? { ...next } : {};
  }
  node[parts[parts.length - 1]] = value;
}

/** The form as a stored request keeps it: the model's schemas, and what each language says of its fields, photos and name. */
export function formRevision(model: Pick<FormModel, 'name' | 'schema' | 'uiSchema'>, languages: Languages): FormRevision {
  const fields = Object.keys(model.schema.properties);
  const texts: Record<Locale, TextTree> = {};
  for (const [code, tree] of languages) {
    const part: Tree = {};
    const keep = (path: string) => {
      const found = nodeAt(tree, path);
      if (found !== undefined) put(part, path, found);
    };
    for (const table of FIELD_TABLES) fields.forEach((field) => keep(`${table}.${field}`));
    fields.forEach((field) => keep(`${PHOTO_NAMES}.${field}`));
    keep(`${FORM_NAMES}.${model.name}`);
    texts[code] = part;
  }
  return { variant: model.name, schema: model.schema, uiSchema: model.uiSchema, texts };
}

/**
 * Whether a stored request could have been sent with `model`: it holds only the form's request
 * fields, every one the form requires, and a text in the customer's e-mail field. A request stored
 * before revisions were kept is given a revision only where it fits one; else its form is unknown.
 */
export function fitsForm(model: Pick<FormModel, 'schema' | 'requestFields' | 'roles'>, request: Readonly<Record<string, unknown>>): boolean {
  const fields = new Set(model.requestFields);
  if (!Object.keys(request).every((name) => fields.has(name))) return false;
  if (!model.schema.required.filter((name) => fields.has(name)).every((name) => request[name] !== undefined)) return false;
  const customer = model.roles['customer-email'];
  return customer === undefined || typeof request[customer] === 'string';
}

/** The revision's form: roles, photos and fields as they were. */
export const revisionModel = (revision: FormRevision): FormModel => formModel(revision.variant, revision.schema, revision.uiSchema);

function merged(under: TextTree | undefined, over: TextTree | undefined): TextTree | undefined {
  if (under === undefined || over === undefined) return over ?? under;
  const out: Tree = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = typeof value === 'object' && typeof below === 'object' ? (merged(below, value) as Tree) : value;
  }
  return out;
}

/**
 * The words a request kept with `revision` is read in: today's language files
 * wherever they name a field, an option or the form (a label corrected since
 * is read corrected), else the revision's (a field renamed or removed since
 * keeps its label). Photos are named as the revision named them, or by their
 * field where it named none: the names their desk mail announced and
 * attached them under, whatever the files say now.
 */
export function revisionLanguages(revision: FormRevision, today: Languages): Languages {
  const codes = new Set([...today.keys(), ...Object.keys(revision.texts)]);
  const fields = Object.keys(revision.schema.properties);
  return new Map(
    [...codes].map((code) => {
      const kept = revision.texts[code];
      const now = nodeAt(today.get(code), PHOTO_NAMES);
      const photoNames: Tree = typeof now === 'object' ? Object.fromEntries(Object.entries(now).filter(([field]) => !fields.includes(field))) : {};
      const keptNames = nodeAt(kept, PHOTO_NAMES);
      if (typeof keptNames === 'object') Object.assign(photoNames, keptNames);
      const tree: Tree = { ...(merged(kept, today.get(code)) as Tree | undefined) };
      put(tree, PHOTO_NAMES, photoNames);
      return [code, tree];
    }),
  );
}
