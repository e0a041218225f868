import { requestFields, type FormSchema } from './form-schema';
import type { Brand, Locale, RepairFormData, RepairRequest } from './types';

/**
 * The body the page sends: the request fields of the variant's schema that
 * have a value, without the form-only photo pickers; brand fixed to the
 * brand's name where the brand file says so, and language from the route
 * where the variant carries it.
 */
export function shapeRequest(
  formData: RepairFormData,
  schema: FormSchema,
  brand: Pick<Brand, 'name' | 'brandField'>,
  locale: Locale,
): RepairRequest {
  const values: Record<string, unknown> = { ...formData };
  if (brand.brandField.mode === 'fixed') values.brand = brand.name;
  if ('language' in schema.properties) values.language = locale;
  const body: Record<string, unknown> = {};
  for (const field of requestFields(schema)) {
    const value = values[field];
    if (value !== undefined && value !== null && value !== '') body[field] = value;
  }
  return body as unknown as RepairRequest;
}
