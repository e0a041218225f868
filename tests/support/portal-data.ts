import { join } from 'node:path';
import { messageTable, type MessageTable } from '../../src/core/field-errors';
import type { FormModel } from '../../src/core/form-model';
import type { Locale, Variant } from '../../src/core/types';
import { loadPortalData } from '../../src/server/portal-data';

/** The project's forms, languages and countries (schemas/), read as the server reads them. */
export const portal = loadPortalData(join(import.meta.dirname, '../../schemas'));

/** A variant's form; the spec's two (extended, simple) are the product's. */
export function form(variant: Variant): FormModel {
  const found = portal.forms.get(variant);
  if (!found) throw new Error(`no form variant ${variant} in schemas/forms`);
  return found;
}

export function messages(variant: Variant, locale: Locale = 'nl'): MessageTable {
  return messageTable(portal.languages, variant, locale);
}
