import type { Ajv } from 'ajv';
import { fileRulesKeyword } from './file-rules';
import { formOnlyKeyword } from './form-only';
import { postalCodeKeyword } from './postal-code';
import { filledKeyword, plainTextKeyword } from './text-rules';

export const repairKeywords = [postalCodeKeyword, fileRulesKeyword, formOnlyKeyword, filledKeyword, plainTextKeyword];

/** Adds the portal's custom keywords; used by the page build, the server and the CLI alike. */
export function addRepairKeywords<T extends Pick<Ajv, 'addKeyword'>>(ajv: T): T {
  for (const keyword of repairKeywords) ajv.addKeyword(keyword);
  return ajv;
}
