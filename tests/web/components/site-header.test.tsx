// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteHeader } from '../../../src/web/components/site-header';
import { BRANDS, LOCALE_CASES, TEXTS, brand } from '../brand-fixtures';
import { renderChrome } from './render-chrome';

afterEach(cleanup);

describe('SiteHeader', () => {
  it.each(LOCALE_CASES)('%s (%s): shows the brand logo, named after the brand', (id, locale) => {
    renderChrome(<SiteHeader brand={brand(id)} country="be" />, locale);
    const logo = screen.getByRole('img', { name: brand(id).name });
    expect(logo.getAttribute('src')).toContain(`${id}-logo.svg`);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it.each(['nl', 'fr'] as const)('kuppersbusch (%s): a SERVICE banner', (locale) => {
    renderChrome(<SiteHeader brand={brand('kuppersbusch')} country="be" />, locale);
    expect(screen.getByRole('heading', { level: 1, name: 'SERVICE' })).toBeTruthy();
  });

  it('teka: the page is titled "Reparatie aanvragen" in Dutch, and in French in French', () => {
    renderChrome(<SiteHeader brand={brand('teka')} country="nl" />, 'nl');
    expect(screen.getByRole('heading', { level: 1, name: 'Reparatie aanvragen' })).toBeTruthy();
    cleanup();
    renderChrome(<SiteHeader brand={brand('teka')} country="nl" />, 'fr');
    expect(screen.getByRole('heading', { level: 1, name: brand('teka').header.title?.fr })).toBeTruthy();
  });

  it.each(BRANDS.map((b) => [b.id, b.header.languageSwitch]))('%s: NL/FR switch shown = %s, as the brand file says', (id, shown) => {
    renderChrome(<SiteHeader brand={brand(id)} country="be" />, 'nl');
    const group = screen.queryByRole('group', { name: TEXTS.nl.header.languageSwitch });
    expect(group !== null).toBe(shown);
  });

  it.each(BRANDS.filter((b) => b.header.languageSwitch).map((b) => b.id))(
    '%s: clicking FR goes to /<id>/fr/<country>, and NL back',
    (id) => {
      renderChrome(<SiteHeader brand={brand(id)} country="lu" />, 'nl', `/${id}/nl/lu`);
      const group = screen.getByRole('group', { name: TEXTS.nl.header.languageSwitch });
      const nlButton = within(group).getByRole('button', { name: /^NL/ });
      const frButton = within(group).getByRole('button', { name: 'FR Français' });
      expect(nlButton.getAttribute('aria-pressed')).toBe('true');
      expect(frButton.getAttribute('aria-pressed')).toBe('false');
      fireEvent.click(frButton);
      expect(screen.getByTestId('location').textContent).toBe(`/${id}/fr/lu`);
      fireEvent.click(nlButton);
      expect(screen.getByTestId('location').textContent).toBe(`/${id}/nl/lu`);
    },
  );
});
