import type { ValidateFunction } from 'ajv';
import { requestBrandIssues } from '../../core/brand-rule';
import { fieldErrors, messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import type { FormModel } from '../../core/form-model';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import { offeredLocale } from '../../core/locale';
import { text } from '../../core/texts';
import type { Brand, Locale, RepairRequest } from '../../core/types';
import type { PortalData } from '../portal-data';

export type Verdict = { ok: true; request: RepairRequest; locale: Locale } | { ok: false; error: string; fields: FieldErrors };

/** Each variant's schema compiled once, by the shared keywords and options (server and staff commands). */
export function compileForms({ forms, rules }: Pick<PortalData, 'forms' | 'rules'>): Map<string, ValidateFunction> {
  const ajv = createRepairAjv(rules);
  return new Map([...forms].map(([variant, model]) => [variant, ajv.compile(model.schema)]));
}

/** The brand's form; a brand file naming no variant there is refused at start (brands.ts), so this is a fault. */
export function formOf(data: Pick<PortalData, 'forms'>, brand: Pick<Brand, 'id' | 'variant'>): FormModel {
  const model = data.forms.get(brand.variant);
  if (!model) throw new Error(`brand ${brand.id} uses the form variant "${brand.variant}", which schemas/forms does not have`);
  return model;
}

/**
 * Judges a submitted body exactly as the page does: the variant's schema,
 * the shared keywords and ajv options (no coercion, no removal). Form-only
 * properties are refused outright: the page strips them, so their presence
 * means the body did not come from the form. The brand's own rules (which
 * brand names and countries its form accepts, and that a brand the form
 * fixes is sent) come from its brand file, as on the page.
 */
export class RequestValidator {
  /** `validators`: compileForms(data), shared by the server's validators. */
  constructor(
    private readonly data: Pick<PortalData, 'forms' | 'languages' | 'rules'>,
    private readonly validators: ReadonlyMap<string, ValidateFunction> = compileForms(data),
  ) {}

  /**
   * Messages come in the request's language: the one its language field
   * carries (its mails go out in it), if the brand offers it, else
   * `headerLocale` (X-Portal-Locale).
   */
  check(brand: Pick<Brand, 'id' | 'name' | 'brandField' | 'variant' | 'countries' | 'locales'>, body: unknown, headerLocale: Locale): Verdict {
    const model = formOf(this.data, brand);
    const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const languageField = model.roles.language;
    const locale = offeredLocale(object && languageField !== undefined ? object[languageField] : undefined, brand, headerLocale);
    const table = messageTable(this.data.languages, brand.variant, locale);
    if (object) {
      const formOnly: ValidationIssue[] = Object.keys(object)
        .filter((name) => model.schema.properties[name]?.formOnly)
        .map((name) => ({ keyword: 'formOnly', instancePath: `/${name}`, params: {} }));
      if (formOnly.length > 0) return { ok: false, error: 'Form-only fields must not be sent.', fields: fieldErrors(formOnly, table) };
    }
    const validate = this.validators.get(brand.variant)!;
    const issues = [...(validate(body) ? [] : (validate.errors ?? [])), ...requestBrandIssues(brand, model, body)];
    if (issues.length === 0) return { ok: true, request: body as RepairRequest, locale };
    // The page's own summary of a refused form ("Eén of meerdere velden…"), so an API caller reads what a visitor reads.
    return { ok: false, error: text(this.data.languages, locale, 'form.invalidFields'), fields: fieldErrors(issues, table) };
  }
}
