import type { ValidateFunction } from 'ajv';
import { requestBrandIssues } from '../../core/brand-rule';
import { fieldErrors, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import { formSchemas } from '../../core/form-schemas';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import { isLocale } from '../../core/locale';
import type { Brand, Locale, RepairRequest, Variant } from '../../core/types';
import fr from '../../../schemas/i18n/fr.json';
import nl from '../../../schemas/i18n/nl.json';

/** The page's own summary of a refused form ("Eén of meerdere velden…"), so an API caller reads what a visitor reads. */
const INVALID_FIELDS: Record<Locale, string> = { nl: nl.form.invalidFields, fr: fr.form.invalidFields };

export type Verdict = { ok: true; request: RepairRequest } | { ok: false; error: string; fields: FieldErrors };

/**
 * Judges a submitted body exactly as the page does: the variant's schema,
 * the shared keywords and ajv options (no coercion, no removal). Form-only
 * properties are refused outright: the page strips them, so their presence
 * means the body did not come from the form. The brand's own rule (which
 * brand names its form accepts, and that a brand the form fixes is sent)
 * comes from its brand file, as on the page.
 */
export class RequestValidator {
  private readonly validators: Record<Variant, ValidateFunction>;

  constructor() {
    const ajv = createRepairAjv();
    this.validators = {
      extended: ajv.compile(formSchemas.extended.schema),
      simple: ajv.compile(formSchemas.simple.schema),
    };
  }

  /**
   * Messages come in the request's language: the one an extended request
   * carries (its mails go out in it), else `headerLocale` (X-Portal-Locale).
   */
  check(brand: Pick<Brand, 'name' | 'brandField' | 'variant'>, body: unknown, headerLocale: Locale): Verdict {
    const { variant } = brand;
    const language = body !== null && typeof body === 'object' ? (body as { language?: unknown }).language : undefined;
    const locale = isLocale(language) ? language : headerLocale;
    const properties = formSchemas[variant].schema.properties;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const formOnly: ValidationIssue[] = Object.keys(body)
        .filter((name) => properties[name]?.formOnly)
        .map((name) => ({ keyword: 'formOnly', instancePath: `/${name}`, params: {} }));
      if (formOnly.length > 0) {
        return { ok: false, error: 'Form-only fields must not be sent.', fields: fieldErrors(formOnly, variant, locale) };
      }
    }
    const validate = this.validators[variant];
    const issues = [...(validate(body) ? [] : (validate.errors ?? [])), ...requestBrandIssues(brand, body)];
    if (issues.length === 0) return { ok: true, request: body as RepairRequest };
    return { ok: false, error: INVALID_FIELDS[locale], fields: fieldErrors(issues, variant, locale) };
  }
}
