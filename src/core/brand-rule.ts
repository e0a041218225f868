import type { ValidationIssue } from './field-errors';
import type { FormModel } from './form-model';
import { brandLocales } from './locale';
import type { Brand } from './types';

/** What of a brand file its form's rules read. */
export type BrandRules = Pick<Brand, 'name' | 'brandField' | 'countries' | 'locales'>;

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

const valueOf = (data: unknown, field: string | undefined): unknown =>
  field !== undefined && data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[field] : undefined;

/** `value` of `field` must be one of `allowed`, as a schema enum would say (keyword `enum`). */
function oneOf(field: string | undefined, value: unknown, allowed: readonly string[] | undefined): ValidationIssue[] {
  if (field === undefined || !allowed || typeof value !== 'string' || allowed.includes(value)) return [];
  return [{ keyword: 'enum', instancePath: `/${field}`, params: { allowedValues: allowed } }];
}

/**
 * The brand file's rules on the form, as validation issues of the schema's
 * kind (keyword `enum`), so page and server report them through the same
 * messages: the brand field (role brand) holds a name the brand accepts, the
 * country field (role country) one of the brand's countries, the language
 * field (role language) one of its languages. Missing values are the schema's
 * `required` to judge, not these rules.
 */
export function brandIssues(brand: BrandRules, model: Pick<FormModel, 'roles'>, data: unknown): ValidationIssue[] {
  const { brand: brandField, country: countryField, language: languageField } = model.roles;
  return [
    ...oneOf(brandField, valueOf(data, brandField), allowedBrandNames(brand)),
    ...oneOf(countryField, valueOf(data, countryField), brand.countries),
    ...oneOf(languageField, valueOf(data, languageField), brandLocales(brand)),
  ];
}

/**
 * The brand rules of a request as sent (shapeRequest's body). A brand the
 * form fixes is not in the form's data (the page adds it when sending), so
 * the form's schema cannot require it; a request without it did not come
 * from the page, and is refused as missing.
 */
export function requestBrandIssues(brand: BrandRules, model: Pick<FormModel, 'roles'>, body: unknown): ValidationIssue[] {
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const field = model.roles.brand;
  if (isObject && field !== undefined && brand.brandField.mode === 'fixed' && valueOf(body, field) === undefined) {
    return [{ keyword: 'required', instancePath: '', params: { missingProperty: field } }];
  }
  return brandIssues(brand, model, body);
}
