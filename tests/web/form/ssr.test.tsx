import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { Brand } from '../../../src/core/types';
import hanant from '../../../brands/hanant.json';
import teka from '../../../brands/teka.json';
import { RepairForm } from '../../../src/web/form/repair-form';

// Prerendered at build time: renders without window, document or sessionStorage.
it('renders on the server for both variants', () => {
  const extended = renderToString(<RepairForm brand={teka as Brand} locale="fr" country="be" />);
  expect(extended).toContain('politique-de-confidentialite');
  expect(extended).not.toContain('checked');
  const simple = renderToString(<RepairForm brand={hanant as Brand} locale="nl" country="nl" />);
  expect(simple).toContain('Senza Nome');
  expect(simple).toContain('Verzenden');
});
