import { join } from 'node:path';
import { FIELD_ROLES, SINGLE_ROLES, ADDRESS_LOOKUP_PARTS } from '../../core/field-roles.ts';
import { formModel, uploadRules, type FormModel } from '../../core/form-model.ts';
import { assembleFormSchema, sharedFieldName, SHARED_FIELDS_FILE, type FormSchema, type SharedFields } from '../../core/form-schema.ts';
import { FORM_FIELDS, FORM_WIDGETS, MAX_PHOTOS } from '../../core/form-widgets.ts';
import { createRepairAjv } from '../../core/keywords/repair-ajv.ts';
import { FALLBACK_LOCALE, textAt } from '../../core/texts.ts';
import { displayPath, isRecord, readJson } from './files.ts';
import { choices, DATA_LAYOUT, projectSchemasDir, variantFiles, type PortalFacts } from './portal-facts.ts';
import { toPointer, type Problem } from './problem.ts';

const UI_PREFIX = 'ui:';
/** Field names become control names, CSS classes and the log's keys: letters, digits and underscores only. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** What the form checks read besides the form files: the languages (labels) and countries (the country field's choices). */
export interface FormCheckData {
  facts: PortalFacts;
  /** Each country's postal-code pattern (the postalCode keyword). */
  postalCodes: Record<string, string>;
  /** Where forms/ is: the project's schemas/ unless SCHEMAS_DIR names another. */
  schemasDir?: string;
}

/**
 * Checks schemas/forms: every <name>.schema.json is a variant with a
 * <name>.ui.json; its fields refer only to definitions fields.json has; it
 * compiles in strict mode with the portal's keywords and options (as the
 * page build and server do); its roles, widgets and photos are ones the
 * portal knows; every field it shows has a Dutch label. Across variants,
 * the photos follow one rule. Returns the variants' models (those that
 * could be assembled) for the checks that follow.
 */
export function checkFormFiles(root: string, { facts, postalCodes, schemasDir = projectSchemasDir(root) }: FormCheckData): { problems: Problem[]; models: FormModel[] } {
  const formsDir = join(schemasDir, 'forms');
  const sharedFile = join(formsDir, SHARED_FIELDS_FILE);
  const sharedRead = readJson(root, sharedFile);
  const problems: Problem[] = sharedRead.ok ? [] : sharedRead.problems.map((p) => ({ ...p, message: `${p.message} The forms take their shared fields from it.` }));
  const shared: SharedFields = sharedRead.ok && isRecord(sharedRead.data) && isRecord(sharedRead.data.definitions) ? (sharedRead.data as unknown as SharedFields) : { definitions: {} };
  if (sharedRead.ok) problems.push(...referenceProblems(displayPath(root, sharedFile), shared, []));
  const models: FormModel[] = [];
  for (const variant of variantFiles(root, schemasDir)) {
    const checked = checkVariant(root, formsDir, variant, shared, { facts, postalCodes });
    problems.push(...checked.problems);
    if (checked.model) models.push(checked.model);
  }
  try {
    uploadRules(models);
  } catch {
    problems.push({
      file: displayPath(root, formsDir),
      pointer: '',
      message: 'the forms give their photos different limits (fileRules). A photo is uploaded before the form is sent, so every form must accept the same photos: give every photo field the same maxBytes and types.',
    });
  }
  return { problems, models };
}

function checkVariant(root: string, formsDir: string, variant: string, shared: SharedFields, data: FormCheckData): { problems: Problem[]; model?: FormModel } {
  const schemaFile = join(formsDir, `${variant}.schema.json`);
  const uiFile = join(formsDir, `${variant}.ui.json`);
  const shownSchema = displayPath(root, schemaFile);
  const shownUi = displayPath(root, uiFile);
  const schema = readJson(root, schemaFile);
  const ui = readJson(root, uiFile);
  const problems: Problem[] = [];
  if (!schema.ok) problems.push(...schema.problems);
  if (!ui.ok) {
    problems.push(...ui.problems.map((p) => (p.message === 'this file is missing.' ? { ...p, message: `this file is missing: the form variant "${variant}" needs its uiSchema beside ${shownSchema}.` } : p)));
  }
  if (!schema.ok || !isRecord(schema.data) || !isRecord(schema.data.properties)) {
    if (schema.ok) problems.push({ file: shownSchema, pointer: '/properties', message: 'a form schema lists its fields in "properties": { "<field>": { … } }.' });
    return { problems };
  }
  const source = schema.data as unknown as FormSchema;
  problems.push(...propertyProblems(shownSchema, source, shared));
  problems.push(...referenceProblems(shownSchema, source, []));
  if (problems.length > 0) return { problems };
  const assembled = assembleFormSchema(source, shared, { countries: [...data.facts.countries], languages: [...data.facts.languages.keys()] });
  const compiled = compileProblem(shownSchema, assembled, data.postalCodes);
  if (compiled) return { problems: [compiled] };
  if (!ui.ok || !isRecord(ui.data)) return { problems };
  const model = formModel(variant, assembled, ui.data);
  problems.push(...uiSchemaProblems(shownUi, shownSchema, ui.data, Object.keys(assembled.properties)));
  problems.push(...modelProblems(shownSchema, shownUi, model, data.facts));
  return { problems, model };
}

/** Each field: a plain name, a known role (single roles once), a shared definition that exists. */
function propertyProblems(file: string, schema: FormSchema, shared: SharedFields): Problem[] {
  const problems: Problem[] = [];
  const holders = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties)) {
    const at = (...more: string[]) => toPointer(['properties', name, ...more]);
    if (!FIELD_NAME.test(name)) {
      problems.push({ file, pointer: at(), message: `"${name}" cannot be a field name: use letters, digits and underscores, starting with a letter (e.g. purchase_place).` });
    }
    if (!isRecord(property)) continue;
    const ref = property.$ref;
    if (ref !== undefined) {
      const definition = sharedFieldName(ref);
      if (definition === undefined) {
        problems.push({ file, pointer: at('$ref'), message: `"${String(ref)}" is not a shared field: write "${SHARED_FIELDS_FILE}#/definitions/<name>", or define the field here in full.` });
      } else if (!Object.hasOwn(shared.definitions, definition)) {
        problems.push({ file, pointer: at('$ref'), message: `${SHARED_FIELDS_FILE} has no field "${definition}". Its fields: ${Object.keys(shared.definitions).join(', ')}.` });
      }
    }
    const definition = sharedFieldName(ref);
    const role = property.role ?? (definition !== undefined ? shared.definitions[definition]?.role : undefined);
    if (role === undefined) continue;
    if (!(FIELD_ROLES as readonly unknown[]).includes(role)) {
      problems.push({ file, pointer: at('role'), message: `"${String(role)}" is not a role the portal knows; a role is one of ${choices(FIELD_ROLES)} (docs/forms-as-data.md says what each does).` });
    } else if ((SINGLE_ROLES as readonly unknown[]).includes(role)) {
      const first = holders.get(String(role));
      if (first) problems.push({ file, pointer: at('role'), message: `the field "${first}" has the role "${String(role)}" already; a form has one such field.` });
      else holders.set(String(role), name);
    }
  }
  return problems;
}

/**
 * A `$ref` inside a field may point only within its own schema (`#/…`): the page resolves no other
 * (src/web/form/same-document-uri.ts keeps a URI library out of it). A field itself may be a shared one.
 */
function referenceProblems(file: string, node: unknown, path: (string | number)[]): Problem[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => referenceProblems(file, item, [...path, i]));
  if (!isRecord(node)) return [];
  const ref = node.$ref;
  const sharedField = path.length === 2 && path[0] === 'properties';
  const own: Problem[] =
    ref !== undefined && !sharedField && !(typeof ref === 'string' && ref.startsWith('#'))
      ? [{ file, pointer: toPointer([...path, '$ref']), message: `"${String(ref)}" points outside this schema; inside a field, a form schema may refer only within itself ("#/…"). A developer should look at it.` }]
      : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => referenceProblems(file, value, [...path, key]))];
}

/** Why each schema recently checked does not compile ('' where it does): `npm run dev` checks again on every save, mostly of other files. */
const compileVerdicts = new Map<string, string>();

function compileProblem(file: string, schema: FormSchema, postalCodes: Record<string, string>): Problem | undefined {
  const key = JSON.stringify([schema, postalCodes]);
  let reason = compileVerdicts.get(key);
  if (reason === undefined) {
    try {
      createRepairAjv({ postalCodes }).compile(schema);
      reason = '';
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    compileVerdicts.set(key, reason);
    if (compileVerdicts.size > 16) compileVerdicts.delete(compileVerdicts.keys().next().value!);
  }
  return reason === '' ? undefined : { file, pointer: '', message: `this form schema does not compile, so the form cannot be built. A developer should look at it: ${reason}` };
}

/** Exported for tests: the references a uiSchema makes to its form schema's fields, and the names it uses. */
export function uiSchemaProblems(file: string, schemaFile: string, ui: Record<string, unknown>, properties: readonly string[]): Problem[] {
  const known = new Set(properties);
  const problems: Problem[] = [];
  const unknown = (pointer: string, name: unknown, what: string) =>
    problems.push({ file, pointer, message: `${what} "${String(name)}", which is not a field of ${schemaFile}. Check the spelling, or add the field to the form schema.` });

  for (const [key, value] of Object.entries(ui)) {
    if (key.startsWith(UI_PREFIX)) continue;
    if (!known.has(key)) unknown(toPointer([key]), key, 'this sets up a field');
    if (!isRecord(value)) continue;
    const widget = value['ui:widget'];
    if (widget !== undefined && !(FORM_WIDGETS as readonly unknown[]).includes(widget)) {
      problems.push({ file, pointer: toPointer([key, 'ui:widget']), message: `"${String(widget)}" is not a widget the form has; use ${choices(FORM_WIDGETS)} (or leave "ui:widget" out for a text input).` });
    }
    const custom = value['ui:field'];
    if (custom !== undefined && !(FORM_FIELDS as readonly unknown[]).includes(custom)) {
      problems.push({ file, pointer: toPointer([key, 'ui:field']), message: `"${String(custom)}" is not a field the form has; use ${choices(FORM_FIELDS)}.` });
    }
    const options = isRecord(value['ui:options']) ? value['ui:options'] : {};
    const target = options.target;
    if (custom === 'photoUpload' && target === undefined) {
      problems.push({ file, pointer: toPointer([key, 'ui:options']), message: `this photo has no "target": add "ui:options": { "target": "<field>" }, the field of the request its stored name goes to (as upload_1 → image1).` });
    } else if (target !== undefined && !known.has(String(target))) {
      unknown(toPointer([key, 'ui:options', 'target']), target, 'the photo is stored in');
    }
    const lookup = options.addressLookup;
    if (lookup !== undefined && !(ADDRESS_LOOKUP_PARTS as readonly unknown[]).includes(lookup)) {
      problems.push({ file, pointer: toPointer([key, 'ui:options', 'addressLookup']), message: `"${String(lookup)}" is no part of the address lookup; use ${choices(ADDRESS_LOOKUP_PARTS)}.` });
    }
  }

  const shown = new Map<string, string>();
  const options = isRecord(ui['ui:options']) ? ui['ui:options'] : {};
  const sections = Array.isArray(options.sections) ? options.sections : [];
  sections.forEach((section, s) => {
    const fields = isRecord(section) && Array.isArray(section.fields) ? section.fields : [];
    fields.forEach((field, f) => {
      const pointer = toPointer(['ui:options', 'sections', s, 'fields', f]);
      if (!known.has(String(field))) unknown(pointer, field, 'this section lists');
      else if (shown.has(String(field))) {
        problems.push({ file, pointer, message: `"${String(field)}" is already listed at ${shown.get(String(field))}; a field can be in one section only.` });
      } else shown.set(String(field), pointer);
    });
  });

  for (const name of properties) {
    if (shown.has(name) || isHidden(ui[name])) continue;
    problems.push({
      file,
      pointer: toPointer(['ui:options', 'sections']),
      message: `the field "${name}" is in the form schema but in no section, so the form would not show it. Add it to a section, or give it "ui:widget": "hidden".`,
    });
  }
  return problems;
}

function isHidden(uiField: unknown): boolean {
  return isRecord(uiField) && uiField['ui:widget'] === 'hidden';
}

/** What the assembled form says that the portal must be able to act on: its photos, its customer's address, its labels. */
function modelProblems(schemaFile: string, uiFile: string, model: FormModel, facts: PortalFacts): Problem[] {
  const problems: Problem[] = [];
  const { schema } = model;
  model.photos.forEach(({ picker, target }, i) => {
    const pickerSchema = schema.properties[picker];
    const targetSchema = schema.properties[target];
    if (!pickerSchema?.formOnly || !pickerSchema.fileRules) {
      problems.push({ file: schemaFile, pointer: toPointer(['properties', picker]), message: `the photo "${picker}" needs "formOnly": true and its "fileRules" (size and types), as upload_1 in ${SHARED_FIELDS_FILE} has.` });
    }
    if (targetSchema && (targetSchema.formOnly || targetSchema.type !== 'string')) {
      problems.push({ file: schemaFile, pointer: toPointer(['properties', target]), message: `the photo "${picker}" stores its name in "${target}", which must be a text field the request sends (as image1 in ${SHARED_FIELDS_FILE}).` });
    }
    if (i === MAX_PHOTOS) problems.push({ file: uiFile, pointer: toPointer([picker]), message: `a form has at most ${MAX_PHOTOS} photos: the desk's mail carries them all.` });
  });
  const customer = model.roles['customer-email'];
  if (customer === undefined) {
    problems.push({ file: schemaFile, pointer: '/properties', message: 'no field has the role "customer-email": the confirmation needs an address to go to. Give the customer\'s e-mail field "role": "customer-email".' });
  } else if (!schema.required.includes(customer)) {
    problems.push({ file: schemaFile, pointer: '/required', message: `the customer's e-mail ("${customer}") must be required: the confirmation needs an address to go to.` });
  }
  const dutch = facts.languages.get(FALLBACK_LOCALE);
  if (!dutch) return problems;
  const label = (key: string, pointer: string, what: string) => {
    if (textAt(dutch, key) === undefined) problems.push({ file: uiFile, pointer, message: `${what} has no Dutch label: add "${key}" to ${DATA_LAYOUT.i18nDir}/${FALLBACK_LOCALE}.json (and to the other languages), or the page shows the raw key.` });
  };
  model.sections.forEach((section, s) => {
    label(`sections.${section.id}`, toPointer(['ui:options', 'sections', s, 'id']), `the section "${section.id}"`);
    // A field the schema lacks is reported by uiSchemaProblems already.
    section.fields.forEach((field, f) => Object.hasOwn(schema.properties, field) && label(`fields.${field}`, toPointer(['ui:options', 'sections', s, 'fields', f]), `the field "${field}"`));
  });
  return problems;
}
