import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import { displayPath, isRecord, readJson } from './files';
import { toPointer, type Problem } from './problem';

const UI_PREFIX = 'ui:';

/**
 * Checks schemas/forms: every variant the brand schema offers has a form
 * schema and a uiSchema; each form schema compiles in strict mode with the
 * portal's own keywords and options (as the page build and server do); each
 * uiSchema names only fields that exist and shows every field.
 */
export function checkFormFiles(root: string, formsDir: string, variants: readonly string[]): Problem[] {
  const found = existsSync(formsDir)
    ? readdirSync(formsDir).filter((f) => f.endsWith('.schema.json')).map((f) => f.slice(0, -'.schema.json'.length))
    : [];
  const all = [...new Set([...variants, ...found])].sort();
  return all.flatMap((variant) => checkVariant(root, formsDir, variant));
}

function checkVariant(root: string, formsDir: string, variant: string): Problem[] {
  const schemaFile = join(formsDir, `${variant}.schema.json`);
  const uiFile = join(formsDir, `${variant}.ui.json`);
  const schema = readJson(root, schemaFile);
  const ui = readJson(root, uiFile);
  const problems: Problem[] = [];
  if (!schema.ok) {
    problems.push(...schema.problems.map((p) => ({ ...p, message: `${p.message} Brands with variant "${variant}" need it.` })));
  } else {
    problems.push(...compileProblems(displayPath(root, schemaFile), schema.data));
    problems.push(...referenceProblems(displayPath(root, schemaFile), schema.data));
  }
  if (!ui.ok) problems.push(...ui.problems);
  if (schema.ok && ui.ok && isRecord(schema.data) && isRecord(ui.data)) {
    const properties = isRecord(schema.data.properties) ? Object.keys(schema.data.properties) : [];
    problems.push(...uiSchemaProblems(displayPath(root, uiFile), displayPath(root, schemaFile), ui.data, properties));
  }
  return problems;
}

function compileProblems(file: string, schema: unknown): Problem[] {
  const ajv = createRepairAjv();
  try {
    ajv.compile(schema as object);
    return [];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ file, pointer: '', message: `this form schema does not compile, so the form cannot be built. A developer should look at it: ${reason}` }];
  }
}

/**
 * A `$ref` may point only within its own schema (`#/…`): the page resolves
 * no other (src/web/form/same-document-uri.ts keeps a URI library out of it).
 */
function referenceProblems(file: string, node: unknown, path: (string | number)[] = []): Problem[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => referenceProblems(file, item, [...path, i]));
  if (!isRecord(node)) return [];
  const ref = node.$ref;
  const own: Problem[] =
    ref !== undefined && !(typeof ref === 'string' && ref.startsWith('#'))
      ? [{ file, pointer: toPointer([...path, '$ref']), message: `"${String(ref)}" points outside this schema; a form schema may refer only within itself ("#/…"). A developer should look at it.` }]
      : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => referenceProblems(file, value, [...path, key]))];
}

/** Exported for tests: the references a uiSchema makes to its form schema's fields. */
export function uiSchemaProblems(
  file: string,
  schemaFile: string,
  ui: Record<string, unknown>,
  properties: readonly string[],
): Problem[] {
  const known = new Set(properties);
  const problems: Problem[] = [];
  const unknown = (pointer: string, name: unknown, what: string) =>
    problems.push({ file, pointer, message: `${what} "${String(name)}", which is not a field of ${schemaFile}. Check the spelling, or add the field to the form schema.` });

  for (const [key, value] of Object.entries(ui)) {
    if (key.startsWith(UI_PREFIX)) continue;
    if (!known.has(key)) unknown(toPointer([key]), key, 'this sets up a field');
    const target = isRecord(value) && isRecord(value['ui:options']) ? value['ui:options'].target : undefined;
    if (target !== undefined && !known.has(String(target))) {
      unknown(toPointer([key, 'ui:options', 'target']), target, 'the photo is stored in');
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
