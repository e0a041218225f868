import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deliveryUrlProblem } from '../../core/delivery-url.ts';
import type { Brand } from '../../core/types.ts';
import { assetFileProblem } from './asset-file.ts';
import { idPatternOf, idProblems } from './brand-ids.ts';
import { plainErrors } from './brand-schema-messages.ts';
import { themeContrastProblems } from './contrast.ts';
import { displayPath, isRecord, readJson } from './files.ts';
import type { Problem } from './problem.ts';

export interface BrandCheckOptions {
  /** Project root: problems name files relative to it. */
  root: string;
  /** Absolute path of brand.schema.json. */
  schemaFile: string;
}

/**
 * Checks brand files one by one (schema, $schema, id, assets, contrast),
 * then across files (unique ids). Files are given as absolute paths so
 * tests can check fixtures that live outside brands/.
 */
export function checkBrandFiles(files: readonly string[], options: BrandCheckOptions): Problem[] {
  const schema = readJson(options.root, options.schemaFile);
  if (!schema.ok) return schema.problems;
  const compiled = compileBrandSchema(schema.data);
  if (typeof compiled === 'string') {
    return [{ file: displayPath(options.root, options.schemaFile), pointer: '', message: `the brand schema does not compile, so no brand file could be checked. A developer should look at it: ${compiled}` }];
  }
  const validate = compiled;
  const read = files.map((file) => ({ file, shown: displayPath(options.root, file), result: readJson(options.root, file) }));
  const ids = idProblems(
    read.map(({ file, shown, result }) => ({ file, shown, id: result.ok && isRecord(result.data) && typeof result.data.id === 'string' ? result.data.id : undefined })),
    idPatternOf(schema.data),
  );
  const problems: Problem[] = [];
  for (const { file, shown, result } of read) {
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const brand = result.data;
    const inFile = (pointer: string, message: string): Problem => ({ file: shown, pointer, message });
    if (!validate(brand)) {
      for (const error of plainErrors(validate.errors ?? [], schema.data)) problems.push(inFile(error.pointer, error.message));
    }
    if (!isRecord(brand)) continue;
    problems.push(...schemaRefProblems(brand, file, options.schemaFile).map((m) => inFile('/$schema', m)));
    problems.push(...(ids.get(file) ?? []).map((m) => inFile('/id', m)));
    for (const key of ['logo', 'favicon'] as const) {
      // A name the schema already rejected would only repeat itself as "file not found".
      if (problems.some((p) => p.file === shown && p.pointer === `/${key}`)) continue;
      const message = assetProblem(brand[key], file, options.root, key);
      if (message) problems.push(inFile(`/${key}`, message));
    }
    const webhookUrl = '/serviceDesk/webhook/url';
    if (!problems.some((p) => p.file === shown && p.pointer === webhookUrl)) {
      const message = webhookProblem(brand);
      if (message) problems.push(inFile(webhookUrl, message));
    }
    if (isRecord(brand.theme)) {
      for (const { pointer, message } of themeContrastProblems(brand.theme as Partial<Brand['theme']>)) {
        problems.push(inFile(pointer, message));
      }
    }
  }
  return problems;
}

/** Where a webhook may not post (core/delivery-url.ts), once the schema has accepted its shape. */
function webhookProblem(brand: Record<string, unknown>): string | undefined {
  const webhook = isRecord(brand.serviceDesk) && isRecord(brand.serviceDesk.webhook) ? brand.serviceDesk.webhook : undefined;
  if (typeof webhook?.url !== 'string') return undefined;
  return deliveryUrlProblem(webhook.url, webhook.allowPrivateNetwork === true);
}

/** The validate function, or why the schema itself is broken. */
function compileBrandSchema(schema: unknown): ValidateFunction | string {
  // verbose: errors carry their schema and data, which the plain sentences quote.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  // What editors read (VS Code's wording, snippets); ajv only has to accept them.
  ajv.addVocabulary(['errorMessage', 'patternErrorMessage', 'defaultSnippets', 'markdownDescription']);
  addFormats(ajv);
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `$schema` is what gives editors completion and inline errors, so it must reach the real schema. */
function schemaRefProblems(brand: Record<string, unknown>, file: string, schemaFile: string): string[] {
  const expected = relative(dirname(file), schemaFile).split(sep).join('/');
  const ref = brand.$schema;
  if (ref === undefined) {
    return [`"$schema" is missing. Add "$schema": "${expected}" as the first line inside { so editors can help you fill in this file.`];
  }
  if (typeof ref !== 'string' || resolve(dirname(file), ref) !== schemaFile) {
    return [`"$schema" must be "${expected}" (it is ${JSON.stringify(ref)}); that is how editors find the rules for this file.`];
  }
  return [];
}

function assetProblem(asset: unknown, file: string, root: string, key: 'logo' | 'favicon'): string | undefined {
  if (typeof asset !== 'string') return undefined;
  const path = resolve(dirname(file), asset);
  if (!existsSync(path)) return `the ${key} file ${displayPath(root, path)} does not exist. Put the file there, or correct the name (capitals count).`;
  return assetFileProblem(path, displayPath(root, path), key);
}
