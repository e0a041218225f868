// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/web/app';
import { BRANDS, TEXTS } from './brand-fixtures';

// The form has its own tests; here only the route, head and chrome matter.
vi.mock('../../src/web/form/repair-form', () => ({
  RepairForm: ({ brand, locale, country }: { brand: { id: string }; locale: string; country: string }) => (
    <p data-testid="form">{`${brand.id} ${locale} ${country}`}</p>
  ),
}));

afterEach(cleanup);

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );

const favicon = () => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href');

describe('App routes', () => {
  // Transformed once before the timed tests: the first import of the page chunk compiles rjsf and the form.
  beforeAll(() => import('../../src/web/pages/brand-page'), 30_000);
  it.each(BRANDS.flatMap((b) => (['nl', 'fr'] as const).map((l) => [b.id, l, b.name] as const)))(
    '/%s/%s/be: brand page titled "{Brand} | Service" with the brand favicon',
    async (id, locale, name) => {
      await act(async () => {
        renderAt(`/${id}/${locale}/be`);
      });
      // The brand page arrives in its own chunk.
      expect((await screen.findByTestId('form', {}, { timeout: 10_000 })).textContent).toBe(`${id} ${locale} be`);
      expect(document.title).toBe(`${name} | Service`);
      expect(favicon()).toContain(`${id}-favicon.svg`);
      expect(document.documentElement.lang).toBe(locale);
      expect(screen.getByRole('img', { name })).toBeTruthy();
    },
  );

  it('falls back to Dutch for an unknown locale', async () => {
    // 'xx' is no language code of ISO 639-1: no portal will ever offer it.
    renderAt('/teka/xx/nl');
    expect((await screen.findByTestId('form', {}, { timeout: 10_000 })).textContent).toBe('teka nl nl');
    expect(document.documentElement.lang).toBe('nl');
  });

  it.each(['/', '/teka', '/teka/nl', '/teka/nl/de', '/miele/nl/be', '/teka/nl/be/extra', '/%E0%A4%A/nl/be', '/%25/nl/be'])(
    '%s shows the 404 page',
    (path) => {
      renderAt(path);
      expect(screen.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' })).toBeTruthy();
      expect(screen.getByText('De pagina die je zoekt bestaat niet of is verplaatst.')).toBeTruthy();
      expect(document.title).toMatch(/^404 - Pagina niet gevonden/);
      expect(document.documentElement.lang).toBe('nl');
      expect(screen.queryByTestId('form')).toBeNull();
    },
  );

  it('the NL/FR switch changes the interface language on the spot', async () => {
    renderAt('/kuppersbusch/nl/be');
    expect(await screen.findByRole('link', { name: TEXTS.nl.footer.privacyPolicy })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^FR/ }));
    expect(screen.getByTestId('form').textContent).toBe('kuppersbusch fr be');
    expect(screen.getByRole('link', { name: TEXTS.fr.footer.privacyPolicy })).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
  });
});
