// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Country, Locale } from '../../../src/core/types';
import { SiteFooter } from '../../../src/web/components/site-footer';
import { BRANDS, LOCALE_CASES, TEXTS, brand } from '../brand-fixtures';
import { renderChrome } from './render-chrome';

afterEach(cleanup);

const footerOf = (id: string, locale: Locale, country: Country = 'nl') => {
  renderChrome(<SiteFooter brand={brand(id)} country={country} />, locale);
  return screen.getByRole('contentinfo');
};

describe('SiteFooter', () => {
  it.each(LOCALE_CASES)('%s (%s): social links have accessible names and the brand URLs', (id, locale) => {
    const footer = footerOf(id, locale);
    const social = brand(id).footer.social ?? [];
    const nav = within(footer).queryByRole('navigation', { name: TEXTS[locale].footer.social });
    expect(nav !== null).toBe(social.length > 0);
    for (const { network, url } of social) {
      const link = within(nav!).getByRole('link', { name: TEXTS[locale].footer[`social_${network}`] });
      expect(link.getAttribute('href')).toBe(url);
    }
  });

  it.each(LOCALE_CASES)('%s (%s): legal links when the brand has them', (id, locale) => {
    const footer = footerOf(id, locale);
    const legal = brand(id).footer.legal;
    const nav = within(footer).queryByRole('navigation', { name: TEXTS[locale].footer.legal });
    expect(nav !== null).toBe(legal !== undefined);
    if (!legal) return;
    const t = TEXTS[locale].footer;
    expect(within(nav!).getByRole('link', { name: t.legalNotice }).getAttribute('href')).toBe(legal.legalNotice);
    expect(within(nav!).getByRole('link', { name: t.cookiesPolicy }).getAttribute('href')).toBe(legal.cookiesPolicy);
  });

  it('kuppersbusch and teka show social and legal links (spec route table)', () => {
    for (const id of ['kuppersbusch', 'teka']) {
      const footer = footerOf(id, 'nl');
      expect(within(footer).getAllByRole('navigation')).toHaveLength(2);
      cleanup();
    }
  });

  it.each([
    ['be', 'nl', 'be.nl'],
    ['be', 'fr', 'be.fr'],
    ['nl', 'nl', 'default'],
    ['nl', 'fr', 'default'],
    ['fr', 'fr', 'default'],
    ['lu', 'fr', 'default'],
  ] as const)('the privacy link for country %s in %s is the %s policy', (country, locale, which) => {
    for (const b of BRANDS.filter((x) => x.footer.legal)) {
      const footer = footerOf(b.id, locale, country);
      const expected = which === 'default' ? b.privacyPolicy.default : (b.privacyPolicy.be as Record<string, string>)[locale];
      expect(within(footer).getByRole('link', { name: TEXTS[locale].footer.privacyPolicy }).getAttribute('href')).toBe(expected);
      cleanup();
    }
  });

  it.each(LOCALE_CASES)('%s (%s): company name, address and phone as in the brand file', (id, locale) => {
    const footer = footerOf(id, locale);
    const { companyName, address, phone } = brand(id).footer;
    const lines = [companyName, address].filter((text) => text !== undefined);
    for (const text of lines) expect(within(footer).getByText(text)).toBeTruthy();
    // A brand with none of them (kuppersbusch, teka) shows no empty address block.
    if (lines.length === 0 && !phone) expect(footer.querySelector('address')).toBeNull();
    const calls = footer.querySelectorAll('a[href^="tel:"]');
    if (phone) {
      expect(within(footer).getByRole('link', { name: phone }).getAttribute('href')).toBe(`tel:${phone.replace(/[^+\d]/g, '')}`);
      expect(footer.textContent).toContain(`${TEXTS[locale].footer.phone}: ${phone}`);
    } else {
      expect(calls).toHaveLength(0);
      expect(footer.textContent).not.toContain(`${TEXTS[locale].footer.phone}:`);
    }
  });

  it('shows what the spec asks per simple brand', () => {
    const ilve = footerOf('ilve', 'nl');
    expect(ilve.querySelector('address')?.children).toHaveLength(3);
    cleanup();
    const hanant = footerOf('hanant', 'nl');
    expect(within(hanant).getByText(brand('hanant').footer.address!)).toBeTruthy();
    cleanup();
    const airodesign = footerOf('airodesign', 'fr');
    expect(within(airodesign).getByText('Airodesign')).toBeTruthy();
    expect(within(airodesign).getByRole('link', { name: brand('airodesign').footer.phone })).toBeTruthy();
    cleanup();
    const fratelli = footerOf('fratelli', 'nl');
    expect(within(fratelli).getByText(brand('fratelli').footer.companyName!)).toBeTruthy();
  });
});
