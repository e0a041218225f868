import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, extendedRequest, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../helpers';

let server: TestServer;
let photo: Buffer;

beforeAll(async () => {
  server = await buildTestApp();
  photo = await png();
});
afterAll(() => server.dispose());

async function photos(): Promise<[string, string]> {
  return [await injectUpload(server.app, photo), await injectUpload(server.app, photo)];
}

describe('blank and hostile text over the API', () => {
  it('refuses a required field of only spaces with the required message', async () => {
    const res = await injectSubmit(server.app, 'ilve', { ...simpleRequest(...(await photos())), last_name: '    ', description: '\n\n' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ last_name: ['Dit veld is verplicht'], description: ['Dit veld is verplicht'] });
  });

  it('refuses NUL, control characters and lone surrogates, in French on a French page', async () => {
    const res = await injectSubmit(
      server.app,
      'teka',
      { ...extendedRequest(...(await photos())), last_name: 'Jan\u0000', city: 'Gent\u001b', description: 'x\ud800' },
      { 'x-portal-locale': 'fr' },
    );
    expect(res.statusCode).toBe(400);
    const invalid = ['Caractères non valides'];
    expect(res.json().fields).toEqual({ last_name: invalid, city: invalid, description: invalid });
  });
});

describe('brand names come from the brand file', () => {
  it.each([
    ['kuppersbusch', 'Miele', 'extended'],
    ['teka', 'Miele', 'extended'],
    ['teka', 'Kuppersbusch', 'extended'],
    ['hanant', 'Miele', 'simple'],
    ['hanant', 'hananto', 'simple'],
  ])('%s refuses "%s"', async (brand, name, variant) => {
    const [a, b] = await photos();
    const body = variant === 'simple' ? simpleRequest(a, b) : extendedRequest(a, b);
    const res = await injectSubmit(server.app, brand, { ...body, brand: name });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ brand: [expect.any(String)] });
  });

  it.each([
    ['kuppersbusch', 'Kuppersbusch', 'extended'],
    ['teka', 'Teka', 'extended'],
    ['hanant', 'Hananto', 'simple'],
    ['hanant', 'Senza Nome', 'simple'],
    ['ilve', 'Any Brand Typed', 'simple'],
  ])('%s accepts "%s"', async (brand, name, variant) => {
    const [a, b] = await photos();
    const body = variant === 'simple' ? simpleRequest(a, b) : extendedRequest(a, b);
    const res = await injectSubmit(server.app, brand, { ...body, brand: name });
    expect(res.statusCode).toBe(201);
  });
});

describe('a brand the form fixes is part of every request of it', () => {
  it.each([
    ['kuppersbusch', 'nl', 'This field is required'],
    ['teka', 'fr', 'Ce champ est obligatoire'],
  ] as const)('%s refuses a request without brand, in %s', async (brand, language, message) => {
    const { brand: _omitted, ...body } = extendedRequest(...(await photos()), language);
    const res = await injectSubmit(server.app, brand, body, { 'x-portal-locale': language });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ brand: [message] });
  });

  it('a brand whose form asks for it says it is missing as before', async () => {
    const { brand: _omitted, ...body } = simpleRequest(...(await photos()));
    const res = await injectSubmit(server.app, 'hanant', body);
    expect(res.json().fields).toEqual({ brand: ['Dit veld is verplicht'] });
  });
});
