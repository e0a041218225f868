import type { Ajv } from 'ajv';
import { fileRulesKeyword } from './file-rules';
import { IDN_EMAIL } from './idn-email';
import { formOnlyKeyword } from './form-only';
import { postalCodeKeyword } from './postal-code';
import { filledKeyword, plainTextKeyword } from './text-rules';

export const repairKeywords = [postalCodeKeyword, fileRulesKeyword, formOnlyKeyword, filledKeyword, plainTextKeyword];

/** Adds the portal's custom keywords and formats; used by the page build, the server and the CLI alike. */
export function addRepairRules<T extends Pick<Ajv, 'addKeyword' | 'addFormat'>>(ajv: T): T {
  for (const keyword of repairKeywords) ajv.addKeyword(keyword);
  ajv.addFormat('idn-email', IDN_EMAIL);
  return ajv;
}
