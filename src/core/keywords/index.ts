import type { Ajv } from 'ajv';
import { fileRulesKeyword } from './file-rules.ts';
import { IDN_EMAIL } from './idn-email.ts';
import { formOnlyKeyword, personalKeyword, roleKeyword } from './annotations.ts';
import { postalCodeKeyword } from './postal-code.ts';
import { filledKeyword, plainTextKeyword } from './text-rules.ts';

/** What the rules read from data: each country's postal-code pattern (core/countries.ts: postalCodePatterns). */
export interface RuleData {
  postalCodes: Readonly<Record<string, string>>;
}

/** Adds the portal's custom keywords and formats; used by the page build, the server and the CLI alike. */
export function addRepairRules<T extends Pick<Ajv, 'addKeyword' | 'addFormat'>>(ajv: T, { postalCodes }: RuleData): T {
  for (const keyword of [postalCodeKeyword(postalCodes), fileRulesKeyword, formOnlyKeyword, roleKeyword, personalKeyword, filledKeyword, plainTextKeyword]) {
    ajv.addKeyword(keyword);
  }
  ajv.addFormat('idn-email', IDN_EMAIL);
  return ajv;
}
