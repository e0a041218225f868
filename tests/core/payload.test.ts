import { describe, expect, it } from 'vitest';
import { shapeRequest } from '../../src/core/payload';
import type { Brand } from '../../src/core/types';
import { form } from '../support/portal-data';
import { validData } from './form-rule-cases';

// What shapeRequest reads of a brand file: its name and how its form treats the brand field.
const ilve: Pick<Brand, 'name' | 'brandField'> = { name: 'Ilve', brandField: { mode: 'text' } };
const hanant: Pick<Brand, 'name' | 'brandField'> = { name: 'Hanant', brandField: { mode: 'choice', options: ['Hananto', 'Senza Nome'] } };
const teka: Pick<Brand, 'name' | 'brandField'> = { name: 'Teka', brandField: { mode: 'fixed' } };

const common = [
  'last_name', 'street_name', 'house_number', 'postal_code', 'city', 'country', 'client_email', 'phone_number',
  'description', 'image1', 'image2',
];

describe('shapeRequest', () => {
  it('simple form: the entity fields only, photos by stored name, none of the extended five', () => {
    const body = shapeRequest(
      { ...validData('simple'), phone_number2: '0612345678', house_number_suffix: 'A' },
      form('simple'),
      ilve,
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
      form('simple'),
      hanant,
      'nl',
    );
    expect(body).not.toHaveProperty('notification');
    expect(body).not.toHaveProperty('isAkkoord');
    expect(body).not.toHaveProperty('language');
    expect(body).not.toHaveProperty('install_date');
  });

  it('Hanant keeps the chosen brand', () => {
    const body = shapeRequest({ ...validData('simple'), brand: 'Senza Nome' }, form('simple'), hanant, 'nl');
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
      form('extended'),
      teka,
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
    const body = shapeRequest({ ...validData('extended'), notification: '', phone_number2: undefined }, form('extended'), teka, 'nl');
    expect(body).not.toHaveProperty('notification');
    expect(body).not.toHaveProperty('phone_number2');
  });
});
