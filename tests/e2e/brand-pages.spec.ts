/**
 * Every brand page in nl and fr: prerendered HTML, hydration, header, footer,
 * title, favicon and theme; the 404 page; the language switch.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from './support/browser';
import { BRANDS, LOCALES, NOT_FOUND, TEXTS, brandById } from './support/fixtures';
import { SUBMIT, field, openBrandPage, waitForHydration } from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();

function rgb(hex: string): string {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

describe('brand pages', () => {
  for (const brand of BRANDS) {
    for (const locale of LOCALES) {
      it(`${brand.id} ${locale}: prerendered, hydrated, own header, footer, title, favicon and colours`, async () => {
        const t = TEXTS[locale];
        const url = `${suite.portal.baseUrl}/${brand.id}/${locale}/be`;

        // Before any JavaScript: the served HTML already holds the page.
        const res = await fetch(url);
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain(`<html lang="${locale}"`);
        expect(html).toContain(`<title>${brand.name} | Service</title>`);
        // <!--$--> marks the resolved Suspense boundary around the lazily loaded brand.
        expect(html).toMatch(new RegExp(`<div id="root">(?:<!--\\$-->)?<div class="brand-page brand-page--${brand.id}"`));
        expect(html).toContain('<header');
        expect(html).toContain('<form');
        expect(html).toContain('<footer');
        expect(html, 'no style attributes: the CSP (style-src self) would block them').not.toMatch(/<[a-z][^>]*\sstyle=/i);
        expect(html, 'no inline scripts: the CSP (script-src self) would block them').not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);

        const { context, page, problems } = await openPage(suite.browser);
        try {
          await openBrandPage(page, suite.portal.baseUrl, brand.id, locale);
          expect(await page.title()).toBe(`${brand.name} | Service`);
          expect(await page.getAttribute('html', 'lang')).toBe(locale);

          const favicon = await page.getAttribute('link[rel="icon"]', 'href');
          expect(favicon).toMatch(new RegExp(`${brand.id}-favicon`));
          const icon = await page.request.get(new URL(favicon!, url).href);
          expect(icon.status()).toBe(200);

          // Header: logo named after the brand, banner or title, language switch where the brand has one.
          await expect.poll(() => page.getAttribute('header img', 'alt')).toBe(brand.name);
          const heading = brand.header.banner?.[locale] ?? brand.header.title?.[locale];
          if (heading) expect((await page.textContent('header h1'))?.trim()).toBe(heading);
          expect(await page.locator('.language-switch button').count()).toBe(brand.header.languageSwitch ? 2 : 0);
          expect(await page.evaluate(() => getComputedStyle(document.querySelector('header')!).backgroundColor)).toBe(
            rgb(brand.theme.headerBackground),
          );

          // Footer as the brand file says.
          const footer = (await page.textContent('footer')) ?? '';
          for (const text of [brand.footer.companyName, brand.footer.address, brand.footer.phone]) {
            if (text) expect(footer).toContain(text);
          }
          expect(await page.locator('footer .site-footer__social a').count()).toBe(brand.footer.social?.length ?? 0);
          if (brand.footer.legal) {
            for (const key of ['legalNotice', 'privacyPolicy', 'cookiesPolicy'] as const) expect(footer).toContain(t.footer[key]);
          }
          expect(await page.evaluate(() => getComputedStyle(document.querySelector('footer')!).backgroundColor)).toBe(
            rgb(brand.theme.footerBackground),
          );

          // The form in the page's language.
          expect((await page.textContent(`label[for="root_last_name"]`))?.trim()).toContain(t.fields.last_name);
          expect(await page.locator(field('description')).count()).toBe(1);
          expect(await page.locator(field('install_date')).count()).toBe(brand.form === 'extended' ? 1 : 0);

          expect(problems.errors, 'console errors, hydration mismatches or CSP violations').toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('shows header, form skeleton and footer with JavaScript off (first paint needs no script)', async () => {
    for (const id of ['kuppersbusch', 'ilve']) {
      const brand = brandById(id);
      const { context, page } = await openPage(suite.browser, { javaScriptEnabled: false });
      try {
        await page.goto(`${suite.portal.baseUrl}/${id}/nl/be`);
        expect(await page.title()).toBe(`${brand.name} | Service`);
        expect(await page.isVisible('header h1, header img')).toBe(true);
        expect(await page.isVisible(field('last_name'))).toBe(true);
        expect(await page.isVisible(SUBMIT)).toBe(true);
        expect(await page.isVisible('footer')).toBe(true);
      } finally {
        await context.close();
      }
    }
  });

  it('does not shift layout when the page hydrates', async () => {
    for (const brand of BRANDS) {
      const { context, page } = await openPage(suite.browser);
      try {
        await page.addInitScript(() => {
          const w = window as unknown as { __cls: number };
          w.__cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
              if (!e.hadRecentInput) w.__cls += e.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await openBrandPage(page, suite.portal.baseUrl, brand.id, 'nl');
        // Every module the page fetches after hydrating has arrived, then two frames paint what its effects did.
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
        expect(cls, `${brand.id}: cumulative layout shift`).toBeLessThan(0.01);
      } finally {
        await context.close();
      }
    }
  });
});

describe('404', () => {
  for (const path of ['/', '/onbekend/nl/be', '/teka/nl', '/teka/nl/de', '/teka/nl/be/extra', '/assets/nope.js']) {
    it(`${path} is the 404 page with status 404`, async () => {
      const res = await fetch(`${suite.portal.baseUrl}${path}`);
      expect(res.status).toBe(404);
      if (path.startsWith('/assets/')) return;
      const { context, page } = await openPage(suite.browser);
      try {
        const response = await page.goto(`${suite.portal.baseUrl}${path}`);
        expect(response?.status()).toBe(404);
        await waitForHydration(page);
        expect(await page.title()).toMatch(/^404 - Pagina niet gevonden/);
        expect(await page.textContent('h1')).toContain(NOT_FOUND.title);
        expect(await page.textContent('main')).toContain(NOT_FOUND.body);
        expect(await page.getAttribute('html', 'lang')).toBe('nl');
      } finally {
        await context.close();
      }
    });
  }

  it.each([
    ['with scripts', true],
    ['without scripts', false],
  ])('offers a way back, %s: every brand’s repair form, in Dutch and in French; the spec’s texts stay as they are', async (_how, javaScriptEnabled) => {
    const { context, page } = await openPage(suite.browser, { javaScriptEnabled });
    try {
      await page.goto(`${suite.portal.baseUrl}/tkea/nl/be`);
      if (javaScriptEnabled) await waitForHydration(page);
      // The spec's two sentences, word for word, first.
      expect(await page.textContent('h1')).toBe(NOT_FOUND.title);
      expect(await page.locator('main p').first().textContent()).toBe(NOT_FOUND.body);
      const way = page.getByRole('navigation', { name: 'Naar het reparatieformulier van uw merk' });
      const links = await way.getByRole('link').evaluateAll((els) =>
        els.map((a) => ({ name: a.textContent, href: a.getAttribute('href'), lang: a.getAttribute('lang') ?? a.closest('[lang]')?.getAttribute('lang') })),
      );
      for (const brand of BRANDS) {
        const country = brand.countries[0];
        expect(links).toContainEqual({ name: brand.name, href: `/${brand.id}/nl/${country}`, lang: 'nl' });
        expect(links).toContainEqual({ name: `${brand.name} en français`, href: `/${brand.id}/fr/${country}`, lang: 'fr' });
      }
      expect(links).toHaveLength(BRANDS.length * LOCALES.length);

      await way.getByRole('link', { name: 'Teka', exact: true }).click();
      await page.waitForURL(`${suite.portal.baseUrl}/teka/nl/${brandById('teka').countries[0]}`);
      expect(await page.locator(SUBMIT).count()).toBe(1);
      expect(await page.getAttribute('html', 'lang')).toBe('nl');
    } finally {
      await context.close();
    }
  });
});

describe('language switch', () => {
  for (const brand of BRANDS.filter((b) => b.header.languageSwitch)) {
    it(`${brand.id}: NL/FR switches the interface and the URL on the spot, and a reload keeps it`, async () => {
      const { context, page, problems } = await openPage(suite.browser);
      try {
        await openBrandPage(page, suite.portal.baseUrl, brand.id, 'nl', 'be');
        await page.click('.language-switch button[lang="fr"]');
        await expect.poll(() => page.url()).toBe(`${suite.portal.baseUrl}/${brand.id}/fr/be`);
        await expect.poll(() => page.textContent('label[for="root_last_name"]')).toContain(TEXTS.fr.fields.last_name);
        expect(await page.getAttribute('html', 'lang')).toBe('fr');
        expect(await page.getAttribute('.language-switch button[lang="fr"]', 'aria-pressed')).toBe('true');
        expect(await page.textContent('footer')).toContain(TEXTS.fr.footer.privacyPolicy);

        await page.reload();
        await waitForHydration(page, SUBMIT);
        expect(await page.getAttribute('html', 'lang')).toBe('fr');
        expect(await page.textContent('label[for="root_last_name"]')).toContain(TEXTS.fr.fields.last_name);

        await page.click('.language-switch button[lang="nl"]');
        await expect.poll(() => page.url()).toBe(`${suite.portal.baseUrl}/${brand.id}/nl/be`);
        await expect.poll(() => page.textContent('label[for="root_last_name"]')).toContain(TEXTS.nl.fields.last_name);
        expect(problems.errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
