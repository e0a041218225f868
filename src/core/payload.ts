import type { FormModel } from './form-model';
import type { Brand, Locale, RepairFormData, RepairRequest } from './types';

/**
 * The body the page sends: the request fields of the form that have a
 * value, without the form-only photo pickers; the brand field fixed to the
 * brand's name where the brand file says so, and the language field (where
 * the form has one) set from the route.
 */
export function shapeRequest(
  formData: RepairFormData,
  model: Pick<FormModel, 'requestFields' | 'roles'>,
  brand: Pick<Brand, 'name' | 'brandField'>,
  locale: Locale,
): RepairRequest {
  const values: Record<string, unknown> = { ...formData, ...pageValues(model, locale) };
  if (brand.brandField.mode === 'fixed' && model.roles.brand !== undefined) values[model.roles.brand] = brand.name;
  const body: Record<string, unknown> = {};
  for (const field of model.requestFields) {
    const value = values[field];
    if (value !== undefined && value !== null && value !== '') body[field] = value;
  }
  return body;
}

/** What the page itself fills in: the language field (role language), from the route. */
export function pageValues(model: Pick<FormModel, 'roles'>, locale: Locale): RepairFormData {
  return model.roles.language === undefined ? {} : { [model.roles.language]: locale };
}

/** What a new form holds before the customer types: the route's country in the country field, and the page's own values. */
export function startingData(model: Pick<FormModel, 'roles'>, locale: Locale, country: string): RepairFormData {
  return { ...(model.roles.country === undefined ? {} : { [model.roles.country]: country }), ...pageValues(model, locale) };
}
