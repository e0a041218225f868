import { FIELD_ROLES, SINGLE_ROLES, ADDRESS_LOOKUP_PARTS } from '../field-roles.ts';
import { formModel, uploadRules, type FormModel } from '../form-model.ts';
import { assembleFormSchema, sharedFieldName, SHARED_FIELDS_FILE, type FormSchema, type SharedFields } from '../form-schema.ts';
import { FIELD_OPTIONS, FIELD_UI_KEYS, FORM_FIELDS, FORM_OPTIONS, FORM_UI_KEYS, FORM_WIDGETS, MAX_PHOTOS } from '../form-widgets.ts';
import { createRepairAjv } from '../keywords/repair-ajv.ts';
import { formNames } from '../portal-data.ts';
import { PORTAL_KEYS, isPortalKey } from '../portal-keys.ts';
import type { ProjectFiles } from '../project-files.ts';
import { joinPath } from '../project-path.ts';
import { FALLBACK_LOCALE, textAt } from '../texts.ts';
import { isRecord, readJson } from './files.ts';
import { nearestName } from './nearest.ts';
import { choices, type PortalFacts } from './portal-facts.ts';
import { toPointer, type Problem } from './problem.ts';

const UI_PREFIX = 'ui:';
/** Field names become control names, CSS classes and the log's keys: letters, digits and underscores only. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** What the form checks read besides the form files: the languages (labels) and countries (the country field's choices). */
export interface FormCheckData {
  facts: PortalFacts;
  /** Each country's postal-code pattern (the postalCode keyword). */
  postalCodes: Record<string, string>;
}

/**
 * Checks schemas/forms: every <name>.schema.json is a form with a
 * <name>.ui.json; its fields refer only to definitions fields.json has; it
 * compiles in strict mode with the portal's keywords and options (as the
 * page build and server do); its roles, widgets and photos are ones the
 * portal knows; every field it shows has a Dutch label. Across forms,
 * the photos follow one rule. Returns the forms' models (those that
 * could be assembled) for the checks that follow.
 */
export function checkFormFiles(files: ProjectFiles, schemasDir: string, { facts, postalCodes }: FormCheckData): { problems: Problem[]; warnings: Problem[]; models: FormModel[] } {
  const formsDir = joinPath(schemasDir, 'forms');
  // Where the labels are asked for: the Dutch file every language falls back to.
  const dutchFile = joinPath(schemasDir, 'i18n', `${FALLBACK_LOCALE}.json`);
  const sharedFile = joinPath(formsDir, SHARED_FIELDS_FILE);
  const sharedRead = readJson(files, sharedFile);
  const problems: Problem[] = sharedRead.ok ? [] : sharedRead.problems.map((p) => ({ ...p, message: `${p.message} The forms take their shared fields from it.` }));
  // Unread (missing, or not JSON), the shared fields are unknown rather than none: the forms' references
  // into them are not judged, or each would add a line that only repeats the one above.
  const shared: SharedFields | undefined = !sharedRead.ok
    ? undefined
    : isRecord(sharedRead.data) && isRecord(sharedRead.data.definitions)
      ? (sharedRead.data as unknown as SharedFields)
      : { definitions: {} };
  if (shared) problems.push(...referenceProblems(sharedFile, shared), ...boundsProblems(sharedFile, shared));
  const models: FormModel[] = [];
  const warnings: Problem[] = [];
  for (const formName of formNames(files, schemasDir)) {
    const checked = checkForm(files, formsDir, formName, shared, { facts, postalCodes }, dutchFile);
    problems.push(...checked.problems);
    warnings.push(...checked.warnings);
    if (checked.model) models.push(checked.model);
  }
  warnings.push(...deskWordProblems(models, facts, dutchFile, (form) => joinPath(formsDir, `${form}.ui.json`)));
  try {
    uploadRules(models);
  } catch {
    problems.push({
      file: formsDir,
      pointer: '',
      message: 'the forms give their photos different limits (fileRules). A photo is uploaded before the form is sent, so every form must accept the same photos: give every photo field the same maxBytes and types.',
    });
  }
  return { problems, warnings, models };
}

function checkForm(files: ProjectFiles, formsDir: string, formName: string, shared: SharedFields | undefined, data: FormCheckData, dutchFile: string): { problems: Problem[]; warnings: Problem[]; model?: FormModel } {
  const shownSchema = joinPath(formsDir, `${formName}.schema.json`);
  const shownUi = joinPath(formsDir, `${formName}.ui.json`);
  const schema = readJson(files, shownSchema);
  const ui = readJson(files, shownUi);
  const problems: Problem[] = [];
  if (!schema.ok) problems.push(...schema.problems);
  if (!ui.ok) {
    problems.push(...ui.problems.map((p) => (p.message === 'this file is missing.' ? { ...p, message: `this file is missing: the form "${formName}" needs its uiSchema beside ${shownSchema}.` } : p)));
  }
  if (!schema.ok || !isRecord(schema.data) || !isRecord(schema.data.properties)) {
    if (schema.ok) problems.push({ file: shownSchema, pointer: '/properties', message: 'a form schema lists its fields in "properties": { "<field>": { … } }.' });
    return { problems, warnings: [] };
  }
  const source = schema.data as unknown as FormSchema;
  problems.push(...propertyProblems(shownSchema, source, shared));
  problems.push(...referenceProblems(shownSchema, source), ...boundsProblems(shownSchema, source));
  if (problems.length > 0 || shared === undefined) return { problems, warnings: [] };
  const assembled = assembleFormSchema(source, shared, { countries: [...data.facts.countries], languages: [...data.facts.languages.keys()] });
  const compiled = compileProblem(shownSchema, assembled, data.postalCodes);
  if (compiled) return { problems: [compiled], warnings: [] };
  if (!ui.ok || !isRecord(ui.data)) return { problems, warnings: [] };
  const model = formModel(formName, assembled, ui.data);
  problems.push(...uiSchemaProblems(shownUi, shownSchema, ui.data, Object.keys(assembled.properties)));
  problems.push(...modelProblems(shownSchema, shownUi, model, data.facts, dutchFile));
  problems.push(...choiceLabelProblems(shownSchema, source, model, data.facts, dutchFile));
  return { problems, warnings: textRuleWarnings(shownSchema, model), model };
}

/** Each field: a plain name, a known role (single roles once), a shared definition that exists. */
function propertyProblems(file: string, schema: FormSchema, shared: SharedFields | undefined): Problem[] {
  const problems: Problem[] = [];
  const holders = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties)) {
    const at = (...more: string[]) => toPointer(['properties', name, ...more]);
    if (!FIELD_NAME.test(name)) {
      problems.push({ file, pointer: at(), atName: true, message: `"${name}" cannot be a field name: use letters, digits and underscores, starting with a letter (e.g. purchase_place).` });
    } else if (isPortalKey(name)) {
      problems.push({
        file,
        pointer: at(),
        atName: true,
        message: `"${name}" is one of the portal's own words (${PORTAL_KEYS.join(', ')}), which the export, the mails and the stored request use beside the form's fields: give the field another name (here, in the uiSchema and in the language files).`,
      });
    }
    if (!isRecord(property)) continue;
    const ref = property.$ref;
    if (ref !== undefined) {
      const definition = sharedFieldName(ref);
      if (definition === undefined) {
        problems.push({ file, pointer: at('$ref'), message: `"${String(ref)}" is not a shared field: write "${SHARED_FIELDS_FILE}#/definitions/<name>", or define the field here in full.` });
      } else if (shared && !Object.hasOwn(shared.definitions, definition)) {
        problems.push({ file, pointer: at('$ref'), message: `${SHARED_FIELDS_FILE} has no field "${definition}". Its fields: ${Object.keys(shared.definitions).join(', ')}.` });
      }
    }
    const definition = sharedFieldName(ref);
    const role = property.role ?? (definition !== undefined ? shared?.definitions[definition]?.role : undefined);
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

/** Every object in a schema file, with its path: the checks below look at each one alone. */
function* schemaObjects(node: unknown, path: (string | number)[] = []): Generator<[Record<string, unknown>, (string | number)[]]> {
  if (Array.isArray(node)) for (const [i, item] of node.entries()) yield* schemaObjects(item, [...path, i]);
  if (!isRecord(node)) return;
  yield [node, path];
  for (const [key, value] of Object.entries(node)) yield* schemaObjects(value, [...path, key]);
}

/**
 * A `$ref` inside a field may point only within its own schema (`#/…`): the page resolves no other
 * (src/web/form/same-document-uri.ts keeps a URI library out of it). A field itself may be a shared one.
 */
function referenceProblems(file: string, schema: unknown): Problem[] {
  const problems: Problem[] = [];
  for (const [node, path] of schemaObjects(schema)) {
    const ref = node.$ref;
    const sharedField = path.length === 2 && path[0] === 'properties';
    if (ref !== undefined && !sharedField && !(typeof ref === 'string' && ref.startsWith('#'))) {
      problems.push({ file, pointer: toPointer([...path, '$ref']), message: `"${String(ref)}" points outside this schema; inside a field, a form schema may refer only within itself ("#/…"). A developer should look at it.` });
    }
  }
  return problems;
}

/** A schema's lower and upper bounds of one kind: ajv compiles a pair no value meets, and the field could then never be filled in. */
const BOUNDS = [
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
  ['minimum', 'maximum'],
  ['exclusiveMinimum', 'maximum'],
  ['minimum', 'exclusiveMaximum'],
  ['exclusiveMinimum', 'exclusiveMaximum'],
] as const;

const NEVER = ' so no answer can meet both: a customer could never fill in this field, and if it is required, never send the form.';

/** Bounds no value can meet, anywhere in a schema file: named at the lower bound, with both values. */
function boundsProblems(file: string, schema: unknown): Problem[] {
  const problems: Problem[] = [];
  for (const [node, path] of schemaObjects(schema))
    for (const [low, high] of BOUNDS) {
      const [from, to] = [node[low], node[high]];
      if (typeof from !== 'number' || typeof to !== 'number') continue;
      const strict = low.startsWith('exclusive') || high.startsWith('exclusive');
      if (!(strict ? from < to : from <= to)) {
        problems.push({
          file,
          pointer: toPointer([...path, low]),
          message: `"${low}" (${from}) is ${from === to ? 'the same as' : 'more than'} "${high}" (${to}),${NEVER} Lower "${low}" or raise "${high}".`,
        });
      } else if (node.type === 'integer' && lowestWhole(low, from) > highestWhole(high, to)) {
        // A whole-number field with both bounds between the same two whole numbers (1.2 to 1.8, or above 3 and below 4).
        problems.push({
          file,
          pointer: toPointer([...path, low]),
          message: `no whole number lies between "${low}" (${from}) and "${high}" (${to}), and this field takes whole numbers only ("type": "integer"),${NEVER} Lower "${low}" or raise "${high}".`,
        });
      }
    }
  return problems;
}

/** The least whole number a lower bound lets through (above it when exclusive). */
function lowestWhole(bound: string, value: number): number {
  return bound.startsWith('exclusive') ? Math.floor(value) + 1 : Math.ceil(value);
}

/** The greatest whole number an upper bound lets through (below it when exclusive). */
function highestWhole(bound: string, value: number): number {
  return bound.startsWith('exclusive') ? Math.ceil(value) - 1 : Math.floor(value);
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

  const unread = (pointer: string, name: string, what: string, names: readonly string[]) => {
    const meant = nearestName(name, names);
    problems.push({ file, pointer, atName: true, message: `"${name}" is not ${what} the portal reads, so it does nothing.${meant ? ` Did you mean "${meant}"?` : ''} The known ones: ${choices(names)}.` });
  };
  for (const [key, value] of Object.entries(ui)) {
    if (key === '$schema') continue;
    if (key.startsWith(UI_PREFIX)) {
      if (!(FORM_UI_KEYS as readonly string[]).includes(key)) unread(toPointer([key]), key, 'a key at the top of a uiSchema', FORM_UI_KEYS);
      continue;
    }
    if (!known.has(key)) unknown(toPointer([key]), key, 'this sets up a field');
    if (!isRecord(value)) continue;
    for (const uiKey of Object.keys(value)) {
      if (!(FIELD_UI_KEYS as readonly string[]).includes(uiKey)) unread(toPointer([key, uiKey]), uiKey, "a field's setting", FIELD_UI_KEYS);
    }
    for (const option of isRecord(value['ui:options']) ? Object.keys(value['ui:options']) : []) {
      if (!(FIELD_OPTIONS as readonly string[]).includes(option)) unread(toPointer([key, 'ui:options', option]), option, "an option of a field", FIELD_OPTIONS);
    }
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
  for (const option of Object.keys(options)) {
    if (!(FORM_OPTIONS as readonly string[]).includes(option)) unread(toPointer(['ui:options', option]), option, 'an option of a form', FORM_OPTIONS);
  }
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
function modelProblems(schemaFile: string, uiFile: string, model: FormModel, facts: PortalFacts, dutchFile: string): Problem[] {
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
    if (textAt(dutch, key) === undefined) problems.push({ file: uiFile, pointer, message: `${what} has no Dutch label: add "${key}" to ${dutchFile} (and to the other languages), or the page shows the raw key.` });
  };
  model.sections.forEach((section, s) => {
    label(`sections.${section.id}`, toPointer(['ui:options', 'sections', s, 'id']), `the section "${section.id}"`);
    // A field the schema lacks is reported by uiSchemaProblems already.
    section.fields.forEach((field, f) => Object.hasOwn(schema.properties, field) && label(`fields.${field}`, toPointer(['ui:options', 'sections', s, 'fields', f]), `the field "${field}"`));
  });
  return problems;
}

/**
 * Each choice of a select (a field with `enum` that is shown, the country field aside: its names are
 * `countries.<code>`) has a label in Dutch, which every language falls back to: without one the page,
 * the desk's mail and the export would show the code itself.
 */
function choiceLabelProblems(schemaFile: string, source: FormSchema, model: FormModel, facts: PortalFacts, dutchFile: string): Problem[] {
  const dutch = facts.languages.get(FALLBACK_LOCALE);
  if (!dutch) return [];
  const problems: Problem[] = [];
  for (const [name, property] of Object.entries(model.schema.properties)) {
    const entry = isRecord(model.uiSchema[name]) ? model.uiSchema[name] : {};
    if (!Array.isArray(property.enum) || name === model.roles.country || entry['ui:widget'] === 'hidden' || entry['ui:field'] !== undefined) continue;
    const ownEnum = Array.isArray(source.properties[name]?.enum);
    property.enum.forEach((value, i) => {
      const key = `options.${name}.${String(value)}`;
      if (textAt(dutch, key) !== undefined) return;
      const elsewhere = [...facts.languages].filter(([code, tree]) => code !== FALLBACK_LOCALE && textAt(tree, key) !== undefined).map(([code]) => code);
      const lacks = elsewhere.length > 0 ? `has no Dutch label (${elsewhere.join(', ')} ${elsewhere.length === 1 ? 'has one' : 'have one'}; Dutch is what every language falls back to)` : 'has no label';
      problems.push({
        file: schemaFile,
        pointer: toPointer(ownEnum ? ['properties', name, 'enum', i] : ['properties', name]),
        message: `the choice "${String(value)}" of the field "${name}" ${lacks}: add "options": { "${name}": { "${String(value)}": "…" } } to ${dutchFile} (and to the other languages), or the page, the desk's mail and the export show the code "${String(value)}".`,
      });
    });
  }
  return problems;
}

/**
 * What a text a customer types should say in its schema (core/keywords/text-rules.ts): `plainText`,
 * so that it holds no invisible or direction-changing characters, and, where it is required, `filled`,
 * so that blanks count as missing. The form works without them, so these are warnings.
 */
function textRuleWarnings(schemaFile: string, { schema }: FormModel): Problem[] {
  const warnings: Problem[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    // Typed by a person: not a select's choice, a photo's stored name (a pattern), a constant or a page-only field.
    const typed = property.type === 'string' && property.enum === undefined && property.pattern === undefined && property.const === undefined && !property.formOnly;
    if (!typed) continue;
    const at = toPointer(['properties', name]);
    if (property.format === undefined && property.plainText === undefined) {
      warnings.push({
        file: schemaFile,
        pointer: at,
        message: `the text field "${name}" has no "plainText", so a customer can send control, invisible or direction-changing characters in it, and the desk would read something other than what the page showed. Add "plainText": "line" (or "lines" for a text of several lines).`,
      });
    }
    if (schema.required.includes(name) && property.filled !== true) {
      warnings.push({ file: schemaFile, pointer: at, message: `the required field "${name}" has no "filled": true, so a customer can send it holding only spaces. Add "filled": true.` });
    }
  }
  return warnings;
}

/**
 * Names the desk and the export read in words, per form, in Dutch (the fallback): each photo's
 * attachment name (`mail.desk.photoNames.<target>`) and the form's own (`export.variants.<form>`).
 * Without them the field's or form's code stands in; a warning, once per missing name.
 */
function deskWordProblems(models: readonly FormModel[], facts: PortalFacts, file: string, uiFileOf: (form: string) => string): Problem[] {
  const dutch = facts.languages.get(FALLBACK_LOCALE);
  if (!dutch) return [];
  const warnings: Problem[] = [];
  const named = new Set<string>();
  for (const model of models) {
    const uiFile = uiFileOf(model.name);
    for (const { picker, target } of model.photos) {
      if (named.has(target) || textAt(dutch, `mail.desk.photoNames.${target}`) !== undefined) continue;
      named.add(target);
      warnings.push({
        file,
        pointer: '/mail/desk/photoNames',
        message: `the photo "${picker}" of ${uiFile} (stored in "${target}") has no name for the desk: add "${target}": "…" here (and in the other languages). Until then its attachments are named after the field ("<reference>-${target}"), and mails sent before you add it keep that name.`,
      });
    }
    if (textAt(dutch, `export.variants.${model.name}`) === undefined) {
      const column = textAt(dutch, 'export.columns.variant') ?? 'form';
      warnings.push({
        file,
        pointer: '/export/variants',
        message: `the form "${model.name}" has no name for the export: add "${model.name}": "…" here (and in the other languages), or the export's ${column} column shows "${model.name}".`,
      });
    }
  }
  return warnings;
}
