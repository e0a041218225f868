import { describe, expect, it } from 'vitest';
import { formSchemas } from '../../src/core/form-schemas';
import { shapeRequest } from '../../src/core/payload';
import type { Brand } from '../../src/core/types';
import hanant from '../fixtures/brands/spec/hanant.json';
import ilve from '../fixtures/brands/spec/ilve.json';
import teka from '../fixtures/brands/spec/teka.json';
import { validData } from './form-rule-cases';

const common = [
  'last_name', 'street_name', 'house_number', 'postal_code', 'city', 'country', 'client_email', 'phone_number',
  'description', 'image1', 'image2',
];

describe('shapeRequest', () => {
  it('simple form: the entity fields only, photos by stored name, none of the extended five', () => {
    const body = shapeRequest(
      { ...validData('simple'), phone_number2: '0612345678', house_number_suffix: 'A' },
      formSchemas.simple.schema,
      ilve as Brand,
      'fr',
    );
    expect(Object.keys(body).sort()).toEqual(
      [...common, 'phone_number2', 'house_number_suffix', 'brand', 'type', 'serial_number', 'purchase_date'].sort(),
    );
    expect(body.house_number).toBe(202);
    expect(body.brand).toBe('Ilve');
    for (const absent of ['upload_1', 'upload_2', 'install_date', 'additional_info', 'notification', 'language', 'isAkkoord']) {
      expect(body).not.toHaveProperty(absent);
    }
  });

  it('simple form drops extended-only fields even if present in the data', () => {
    const body = shapeRequest(
      { ...validData('simple'), notification: 'd@example.com', isAkkoord: true, language: 'nl', install_date: 'x' },
      formSchemas.simple.schema,
      hanant as Brand,
      'nl',
    );
    expect(body).not.toHaveProperty('notification');
    expect(body).not.toHaveProperty('isAkkoord');
    expect(body).not.toHaveProperty('language');
    expect(body).not.toHaveProperty('install_date');
  });

  it('Hanant keeps the chosen brand', () => {
    const body = shapeRequest({ ...validData('simple'), brand: 'Senza Nome' }, formSchemas.simple.schema, hanant as Brand, 'nl');
    expect(body.brand).toBe('Senza Nome');
  });

  it('extended form: adds install_date, additional_info, notification, language, isAkkoord; brand = brand name', () => {
    const body = shapeRequest(
      {
        ...validData('extended'),
        brand: 'Typed by someone',
        install_date: '2-2-2024',
        additional_info: 'Achterdeur',
        notification: 'dealer@example.com',
        language: 'nl',
      },
      formSchemas.extended.schema,
      teka as Brand,
      'fr',
    );
    expect(Object.keys(body).sort()).toEqual(
      [...common, 'brand', 'install_date', 'additional_info', 'notification', 'language', 'isAkkoord'].sort(),
    );
    expect(body.brand).toBe('Teka');
    expect(body.language).toBe('fr');
    expect(body.isAkkoord).toBe(true);
    expect(body).not.toHaveProperty('upload_1');
  });

  it('leaves out empty optional values', () => {
    const body = shapeRequest({ ...validData('extended'), notification: '', phone_number2: undefined }, formSchemas.extended.schema, teka as Brand, 'nl');
    expect(body).not.toHaveProperty('notification');
    expect(body).not.toHaveProperty('phone_number2');
  });
});
