import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { repairAjvOptions } from '../ajv-options.ts';
import { addRepairRules, type RuleData } from './index.ts';

/**
 * The runtime validator of repair requests, as the server and the CLI use
 * it: the shared options, formats and keywords, in strict mode so a schema
 * with an unknown keyword fails to compile. (The page ships precompiled
 * functions from the same options instead.)
 */
export function createRepairAjv(data: RuleData): Ajv {
  const ajv = addRepairRules(new Ajv({ ...repairAjvOptions, strict: true }), data);
  addFormats(ajv);
  return ajv;
}
