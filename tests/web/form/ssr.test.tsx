import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { expect, it } from 'vitest';
import { brandFromFile } from '../../../src/core/brand-file';
import hanant from '../../fixtures/brands/spec/hanant.json';
import teka from '../../fixtures/brands/spec/teka.json';
import { RepairForm } from '../../../src/web/form/repair-form';

/** As the build prerenders: waits for the variant's validator chunk, then renders the whole form. */
async function renderStatic(node: ReactNode): Promise<string> {
  const { prelude } = await prerender(node);
  return new Response(prelude).text();
}

// Prerendered at build time: renders without window, document or sessionStorage.
it('renders on the server for both variants', async () => {
  const extended = await renderStatic(<RepairForm brand={brandFromFile(teka)} locale="fr" country="be" />);
  expect(extended).toContain('politique-de-confidentialite');
  expect(extended).not.toContain('checked');
  const simple = await renderStatic(<RepairForm brand={brandFromFile(hanant)} locale="nl" country="nl" />);
  expect(simple).toContain('Senza Nome');
  expect(simple).toContain('Verzenden');
});
