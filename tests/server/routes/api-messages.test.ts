import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fr from '../../fixtures/schemas/spec/i18n/fr.json';
import nl from '../../fixtures/schemas/spec/i18n/nl.json';
import { shapeRequest } from '../../../src/core/payload';
import type { Locale, FormName } from '../../../src/core/types';
import { loadFormValidation } from '../../../src/web/form/validation';
import { ruleCases, withPatch } from '../../core/form-rule-cases';
import { buildTestApp, extendedRequest, injectSubmit, type TestServer } from '../helpers';
import { form } from '../../support/portal-data';

let server: TestServer;
beforeAll(async () => {
  server = await buildTestApp();
});
afterAll(() => server.dispose());

const pageTexts: Record<Locale, { form: { invalidFields: string } }> = { nl, fr };
const pageValidation: Record<FormName, Awaited<ReturnType<typeof loadFormValidation>>> = {
  simple: await loadFormValidation('simple'),
  extended: await loadFormValidation('extended'),
};
const COUNTRIES = ['be', 'fr', 'nl', 'lu'];
/** A brand of each variant whose brand rules let every rule case's brand and country through. */
const BRAND: Record<FormName, { id: string; name: string; countries: string[]; brandField: { mode: 'fixed' } | { mode: 'text' } }> = {
  simple: { id: 'ilve', name: 'Ilve', countries: COUNTRIES, brandField: { mode: 'text' } },
  extended: { id: 'teka', name: 'Teka', countries: COUNTRIES, brandField: { mode: 'fixed' } },
};

describe('the API refuses a request with the words the page shows', () => {
  it.each([
    ['nl', {}],
    ['fr', {}],
    ['nl', { 'x-portal-locale': 'fr' }],
  ] as [Locale, Record<string, string>][])('speaks the language an extended request carries (%s), whatever the header says (%j)', async (language, headers) => {
    const body = { ...extendedRequest('a.jpg', 'b.jpg', language), client_email: 'not-an-address', postal_code: '' };
    const res = await injectSubmit(server.app, 'teka', body, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: pageTexts[language].form.invalidFields,
      fields: {
        client_email: [language === 'nl' ? 'must match format "email"' : 'doit correspondre au format "email"'],
        postal_code: [language === 'nl' ? 'This field is required' : 'Ce champ est obligatoire'],
      },
    });
  });

  it.each(['nl', 'fr'] as Locale[])('answers in the X-Portal-Locale of a simple request (%s), the page\'s summary first', async (locale) => {
    const res = await injectSubmit(server.app, 'ilve', { last_name: 'Jansen' }, { 'x-portal-locale': locale });
    expect(res.statusCode).toBe(400);
    const json = res.json() as { error: string; fields: Record<string, string[]> };
    expect(Object.keys(json)).toEqual(['error', 'fields']);
    expect(json.error).toBe(pageTexts[locale].form.invalidFields);
    expect(json.fields.city).toEqual([locale === 'nl' ? 'Dit veld is verplicht' : 'Ce champ est obligatoire']);
  });

  // Every refusal of the form's rules, judged by the page on its form data and by the API on the body the page would send.
  const requestFieldCases = ruleCases.flatMap((rule) =>
    rule.variants
      .filter((variant) => Object.keys(rule.expect[variant] ?? {}).length > 0)
      .filter(() => Object.keys(rule.patch).every((field) => !form('simple').schema.properties[field]?.formOnly && !field.startsWith('image')))
      .flatMap((variant) => (['nl', 'fr'] as Locale[]).map((locale) => [`${variant}, ${locale}: ${rule.name}`, variant, locale, rule.patch] as const)),
  );

  it.each(requestFieldCases)('%s', async (_name, variant, locale, patch) => {
    const data = withPatch(variant, patch);
    const brand = BRAND[variant];
    const body = shapeRequest(data, form(variant), brand, locale);
    const res = await injectSubmit(server.app, brand.id, body, { 'x-portal-locale': locale });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields: unknown }).fields).toEqual(pageValidation[variant].validate(data, locale, [], brand));
  });
});
