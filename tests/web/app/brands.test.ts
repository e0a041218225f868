import { describe, expect, it } from 'vitest';
import { brandLoaders, loadBrand } from '../../../src/web/app/brands';

describe('brand files as the page loads them', () => {
  it.each([...brandLoaders.keys()])('%s carries no service desk (its addresses and webhook stay on the server)', async (id) => {
    const brand = await loadBrand(id);
    expect(brand.id).toBe(id);
    expect(brand).not.toHaveProperty('serviceDesk');
    expect(JSON.stringify(brand)).not.toMatch(/servicedesk@|webhook/i);
  });
});
