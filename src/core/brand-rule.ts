import type { ValidationIssue } from './field-errors';
import type { Brand } from './types';

/**
 * The brand names a brand's form accepts, from its brand file: its own name
 * where the brand is fixed (Kuppersbusch, Teka), the listed options where
 * the form offers a choice (Hanant); undefined where any name may be typed.
 */
export function allowedBrandNames(brand: Pick<Brand, 'name' | 'brandField'>): readonly string[] | undefined {
  const field = brand.brandField;
  if (field.mode === 'fixed') return [brand.name];
  if (field.mode === 'choice') return field.options;
  return undefined;
}

/**
 * The brand rule as a validation issue (keyword `enum`, like a schema enum),
 * so page and server report it through the same message table. A missing
 * brand is the schema's `required` to judge, not this rule.
 */
export function brandIssues(brand: Pick<Brand, 'name' | 'brandField'>, data: unknown): ValidationIssue[] {
  const allowed = allowedBrandNames(brand);
  const value = brandOf(data);
  if (!allowed || typeof value !== 'string' || allowed.includes(value)) return [];
  return [{ keyword: 'enum', instancePath: '/brand', params: { allowedValues: allowed } }];
}

/**
 * The brand rule of a request as sent (shapeRequest's body). A brand the
 * form fixes is not in the form's data (the page adds it when sending), so
 * the variant's schema cannot require it; a request without it did not come
 * from the page, and is refused as missing.
 */
export function requestBrandIssues(brand: Pick<Brand, 'name' | 'brandField'>, body: unknown): ValidationIssue[] {
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (isObject && brand.brandField.mode === 'fixed' && brandOf(body) === undefined) {
    return [{ keyword: 'required', instancePath: '', params: { missingProperty: 'brand' } }];
  }
  return brandIssues(brand, body);
}

function brandOf(data: unknown): unknown {
  return data !== null && typeof data === 'object' ? (data as { brand?: unknown }).brand : undefined;
}
