import { describe, expect, it } from 'vitest';
import { brandLoaders, loadBrand } from '../../../src/web/app/brands';

describe('brand files as the page loads them', () => {
  it.each([...brandLoaders.keys()])('%s carries only what the page renders: no service desk (its addresses and webhook stay on the server), no notes', async (id) => {
    const brand = await loadBrand(id);
    expect(brand.id).toBe(id);
    expect(brand).not.toHaveProperty('serviceDesk');
    expect(brand).not.toHaveProperty('notes');
    expect(brand).not.toHaveProperty('$schema');
    expect(JSON.stringify(brand)).not.toMatch(/servicedesk@|webhook/i);
  });
});
