import { messageTable, type MessageTable } from '../../src/core/field-errors';
import type { FormModel } from '../../src/core/form-model';
import type { Locale, FormName } from '../../src/core/types';
import { loadPortalData } from '../../src/server/portal-data';
import { SPEC_SCHEMAS_DIR } from './data-folders';

/** The spec's forms, languages and countries (tests/fixtures/schemas/spec), read as the server reads them. */
export const portal = loadPortalData(SPEC_SCHEMAS_DIR);

/** A form of the spec's (extended, simple). */
export function form(variant: FormName): FormModel {
  const found = portal.forms.get(variant);
  if (!found) throw new Error(`no form ${variant} in ${SPEC_SCHEMAS_DIR}/forms`);
  return found;
}

export function messages(variant: FormName, locale: Locale = 'nl'): MessageTable {
  return messageTable(portal.languages, variant, locale);
}
