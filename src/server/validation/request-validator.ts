import type { ValidateFunction } from 'ajv';
import { fieldErrors, messageTable, type FieldErrors, type ValidationIssue } from '../../core/field-errors';
import type { FormModel } from '../../core/form-model';
import { judgeForm, type SchemaCheck } from '../../core/form-judge';
import { createRepairAjv } from '../../core/keywords/repair-ajv';
import { offeredLocale } from '../../core/locale';
import { text } from '../../core/texts';
import type { Brand, Locale, RepairRequest } from '../../core/types';
import type { PortalData } from '../portal-data';
import { unknownFields } from './unknown-fields';

export type Verdict = { ok: true; request: RepairRequest; locale: Locale } | { ok: false; error: string; fields: FieldErrors };

/** A compiled schema as judgeForm takes it: the data's issues, none when valid. */
export const schemaCheck = (validate: ValidateFunction): SchemaCheck => (value) => (validate(value) ? [] : ((validate.errors ?? []) as ValidationIssue[]));

/** The request's language: the one its language field carries (its mails go out in it), if the brand offers it, else the page's. */
function requestLocale(model: FormModel, brand: Pick<Brand, 'locales'>, body: Record<string, unknown> | undefined, headerLocale: Locale): Locale {
  const field = model.roles.language;
  return offeredLocale(body && field !== undefined ? body[field] : undefined, brand, headerLocale);
}

/** Each form's schema compiled once, by the shared keywords and options (server and staff commands). */
export function compileForms({ forms, rules }: Pick<PortalData, 'forms' | 'rules'>): Map<string, ValidateFunction> {
  const ajv = createRepairAjv(rules);
  return new Map([...forms].map(([formName, model]) => [formName, ajv.compile(model.schema)]));
}

/** The brand's form; a brand file naming no form there is refused at start (brands.ts), so this is a fault. */
export function formOf(data: Pick<PortalData, 'forms'>, brand: Pick<Brand, 'id' | 'form'>): FormModel {
  const model = data.forms.get(brand.form);
  if (!model) throw new Error(`brand ${brand.id} uses the form "${brand.form}", which schemas/forms does not have`);
  return model;
}

/**
 * Judges a submitted body exactly as the page does: the form's schema,
 * the shared keywords and ajv options (no coercion, no removal). Form-only
 * properties are refused outright: the page strips them, so their presence
 * means the body did not come from the form. The brand's own rules (which
 * brand names and countries its form accepts, and that a brand the form
 * fixes is sent) come from its brand file, as on the page. Fields the form
 * does not have are refused before anything is judged (unknown-fields.ts):
 * a body swollen with them must cost less to refuse than a request to accept.
 */
export class RequestValidator {
  /** `validators`: compileForms(data), shared by the server's validators. */
  constructor(
    private readonly data: Pick<PortalData, 'forms' | 'languages' | 'rules'>,
    private readonly validators: ReadonlyMap<string, ValidateFunction> = compileForms(data),
  ) {}

  /** A request its route judged already as a whole form (Submit.judged): accepted as it is, in its language. */
  judged(brand: Pick<Brand, 'id' | 'form' | 'locales'>, body: unknown, headerLocale: Locale): Verdict {
    const model = formOf(this.data, brand);
    return { ok: true, request: body as RepairRequest, locale: requestLocale(model, brand, body as Record<string, unknown>, headerLocale) };
  }

  /**
   * Messages come in the request's language: the one its language field
   * carries (its mails go out in it), if the brand offers it, else
   * `headerLocale` (X-Portal-Locale).
   */
  check(brand: Pick<Brand, 'id' | 'name' | 'brandField' | 'form' | 'countries' | 'locales'>, body: unknown, headerLocale: Locale): Verdict {
    const model = formOf(this.data, brand);
    const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const locale = requestLocale(model, brand, object, headerLocale);
    const table = messageTable(this.data.languages, brand.form, locale);
    if (object) {
      const unknown = unknownFields(object, model.schema.properties);
      if (unknown.length > 0) return { ok: false, error: text(this.data.languages, locale, 'form.invalidFields'), fields: fieldErrors(unknown, table) };
      const formOnly: ValidationIssue[] = Object.keys(object)
        .filter((name) => model.schema.properties[name]?.formOnly)
        .map((name) => ({ keyword: 'formOnly', instancePath: `/${name}`, params: {} }));
      if (formOnly.length > 0) return { ok: false, error: 'Form-only fields must not be sent.', fields: fieldErrors(formOnly, table) };
    }
    const fields = judgeForm(model, schemaCheck(this.validators.get(brand.form)!), body, table, { brand, asSent: true });
    if (Object.keys(fields).length === 0) return { ok: true, request: body as RepairRequest, locale };
    // The page's own summary of a refused form ("Eén of meerdere velden…"), so an API caller reads what a visitor reads.
    return { ok: false, error: text(this.data.languages, locale, 'form.invalidFields'), fields };
  }
}
