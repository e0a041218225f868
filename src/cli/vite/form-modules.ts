/**
 * The page's form modules: each form's schema precompiled into plain
 * validation functions, so the shipped bundle holds no ajv compiler and no
 * `new Function` (a CSP without 'unsafe-eval' works). Made by the data
 * modules' plugin (portal-data-modules.ts) from SCHEMAS_DIR, never written to src/.
 */
// Imports name their .ts files: vite.config.ts loads this module.
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import { repairAjvOptions } from '../../core/ajv-options.ts';
import type { FormModel } from '../../core/form-model.ts';
import { pageSchema, pageUiSchema } from '../../core/page-form.ts';
import { addRepairRules, type RuleData } from '../../core/keywords/index.ts';

/**
 * ajv's standalone output is CommonJS; rewrite its few `require`s as
 * imports so Vite and Node both load it as ESM. A CJS module's namespace
 * differs between bundler and Node interop, hence the `?? ` fallback.
 */
export function toEsm(cjs: string, header = ''): string {
  const imports: string[] = [];
  const entries: string[] = [];
  let body = cjs.replace(/^"use strict";\n?/, '');
  body = body.replace(/exports\[("[^"]+")\] = (\w+);/g, (_m, id: string, fn: string) => {
    entries.push(`${id}: ${fn}`);
    return '';
  });
  body = body.replace(/require\("([^"]+)"\)\.(\w+)/g, (_m, spec: string, prop: string) => {
    const ns = `runtime${imports.length}`;
    imports.push(`import * as ${ns} from "${spec}.js";`);
    return `(${ns}.default?.${prop} ?? ${ns}.${prop})`;
  });
  if (/\brequire\(|\bexports\b/.test(body)) throw new Error('unexpected CommonJS left in generated validator');
  return `// Made by src/cli/vite/form-modules.ts from the form files.\n${header}${imports.join('\n')}\n${body}\nexport const validators = { ${entries.join(', ')} };\n`;
}

/**
 * One module per form holding its validator, its assembled schema
 * (shared definitions in, countries and languages filled: core/portal-data.ts;
 * without what the page never reads) and its uiSchema, so a page loads only its
 * own form. Not verbose: errors carry params only, and verbose output would
 * embed copies of the schema.
 */
export function compileVariant(model: Pick<FormModel, 'schema' | 'uiSchema'>, rules: RuleData): string {
  const uiSchema = pageUiSchema(model.uiSchema);
  const schema = pageSchema(model.schema);
  const cjs = compileSchemaValidatorsCode(schema as never, {
    ajvOptionsOverrides: { ...repairAjvOptions, verbose: false },
    extenderFn: (ajv) => addRepairRules(ajv, rules),
  });
  const header = `export const schema = ${JSON.stringify(schema)};\nexport const uiSchema = ${JSON.stringify(uiSchema)};\n`;
  // ajv embeds the root schema as a literal for its error params; point it at the exported one instead of a second copy.
  const literal = `= ${JSON.stringify(schema)};`;
  return toEsm(cjs.replace(literal, '= schema;'), header);
}
