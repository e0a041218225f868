import { describe, expect, it } from 'vitest';
import { requestOrder } from '../../src/core/form-model';
import { form } from '../support/portal-data';

describe('a form model\'s request order', () => {
  it('lists the request fields as the form shows them, photos at their pickers, hidden fields last', () => {
    const { schema } = form('extended');
    const order = requestOrder(form('extended'));
    expect(order.slice(0, 3)).toEqual(['last_name', 'street_name', 'house_number']);
    expect(order.indexOf('image1')).toBe(order.indexOf('description') + 1);
    expect(order.indexOf('image2')).toBe(order.indexOf('image1') + 1);
    expect(order).not.toContain('upload_1');
    expect(new Set(order)).toEqual(new Set(Object.keys(schema.properties).filter((f) => !f.startsWith('upload_'))));
  });
});
