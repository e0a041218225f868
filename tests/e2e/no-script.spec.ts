/**
 * The form without scripts (JavaScript disabled, as when scripts are blocked
 * or fail to load) and before they run: it posts to our server, which judges
 * it by the same rules and messages, keeps what was typed and sent, stores
 * the request and its mails as the scripted path does, and confirms after a
 * 303 that a reload does not repeat. No personal data in any URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRMATION_SENT_TEXT,
  REFERENCE_TEXT,
  SHORT_REFERENCE,
  SUCCESS_TEXT,
  SUMMARY_TEXT,
  TEXTS,
  brandById,
  message,
  photoFiles,
  uniqueEmail,
  validValues,
  type PhotoFile,
} from './support/fixtures';
import { form } from '../support/portal-data';
import { SUBMIT, field, fieldError, fillValidFields, fillValues, hydratedAt, shownReference, waitForHydration } from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();
const NO_SCRIPT = { javaScriptEnabled: false };
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let files: PhotoFile[];

beforeAll(async () => {
  files = await photoFiles();
});

/**
 * axe runs as a script, which a page without JavaScript cannot: the page as
 * shown is checked again in a page whose own scripts are blocked.
 */
async function violations(shown: Page): Promise<string[]> {
  const [html, url] = [await shown.content(), shown.url()];
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.route('**/*.js', (route) => route.abort());
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
    await page.goto(url);
    const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  } finally {
    await context.close();
  }
}

/** Every URL the page asks for or lands on, to look for personal data in them. */
function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r: Request) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  return urls;
}

function expectNoPersonalData(urls: string[], values: string[]): void {
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    const decoded = decodeURIComponent(url);
    for (const value of values) expect(decoded, `${value} in ${url}`).not.toContain(value);
    expect(new URL(url).search, url).toBe('');
  }
}

describe('without JavaScript', () => {
  for (const [brandId, required] of [
    ['kuppersbusch', ['last_name', 'street_name', 'client_email', 'description', 'upload_1', 'isAkkoord']],
    ['ilve', ['street_name', 'brand', 'type', 'purchase_date', 'upload_2']],
  ] as const) {
    const brand = brandById(brandId);
    it(`${brandId} (${brand.form}): a submit shows the variant's messages and keeps what was typed`, () =>
      suite.withPage(async (page) => {
        const urls = recordUrls(page);
        await page.goto(`${suite.portal.baseUrl}/${brandId}/nl/be`);
        await page.fill(field('last_name'), brandId === 'ilve' ? 'Peeters' : '');
        await page.fill(field('postal_code'), '12');
        await page.fill(field('phone_number'), '+32 470 12 34 56');
        await page.click(SUBMIT);
        await page.waitForLoadState();

        const need = message(brand.form, 'nl', 'required');
        for (const name of required) {
          if (brandId === 'ilve' && name === 'last_name') continue;
          const shown = name === 'isAkkoord' ? page.locator('.field--isAkkoord') : page.locator(fieldError(name));
          expect(await shown.textContent({ timeout: 10_000 }), name).toContain(need);
        }
        expect(await page.locator(fieldError('postal_code')).textContent({ timeout: 10_000 })).toContain(message(brand.form, 'nl', 'postalCode'));
        expect(await page.inputValue(field('postal_code'))).toBe('12');
        expect(await page.inputValue(field('phone_number'))).toBe('+32 470 12 34 56');
        if (brandId === 'ilve') expect(await page.inputValue(field('last_name'))).toBe('Peeters');
        expect(await page.getAttribute(field('street_name'), 'aria-invalid')).toBe('true');
        const main = (await page.textContent('main')) ?? '';
        if (brand.form === 'extended') expect(main).toContain(SUMMARY_TEXT.nl);
        else expect(main).not.toContain(SUMMARY_TEXT.nl);
        expect(await violations(page), 'error page').toEqual([]);
        expect(suite.portal.storedRequests('+32 470 12 34 56')).toHaveLength(0);
        expectNoPersonalData(urls, ['Peeters', '470 12 34']);
      }, NO_SCRIPT));
  }

  it('a complete form with two photos is stored with its mails and confirmed; reload and a second post send nothing', () =>
    suite.withPage(async (page) => {
      const brand = brandById('kuppersbusch');
      const email = uniqueEmail('noscript');
      const urls = recordUrls(page);
      await page.goto(`${suite.portal.baseUrl}/kuppersbusch/nl/be`);
      await fillValues(page, validValues(brand, email));
      await page.check(field('isAkkoord'));
      await page.setInputFiles(field('upload_1'), files[0]);
      await page.setInputFiles(field('upload_2'), files[1]);
      const form = await page.locator('form').evaluate((f: HTMLFormElement) => ({ method: f.method, enctype: f.enctype }));
      expect(form).toEqual({ method: 'post', enctype: 'multipart/form-data' });
      await page.click(SUBMIT);
      await page.waitForLoadState();

      const main = (await page.textContent('main')) ?? '';
      expect(main).toContain(SUCCESS_TEXT.nl);
      expect(main).toContain(`${CONFIRMATION_SENT_TEXT.nl} ${email}`);
      expect(await page.locator('form').count()).toBe(0);
      expect(await violations(page), 'confirmation page').toEqual([]);

      const rows = suite.portal.storedRequests(email);
      expect(rows).toHaveLength(1);
      const payload = rows[0].payload as Record<string, unknown>;
      expect(payload).toMatchObject({
        last_name: 'Jansen',
        client_email: email,
        brand: 'Kuppersbusch',
        country: 'be',
        house_number: 12,
        language: 'nl',
        isAkkoord: true,
      });
      expect(payload.image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      // The receipt was posted as a PNG photo; the smaller JPEG of it is what the server keeps.
      expect(payload.image2).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      expect(payload).not.toHaveProperty('upload_1');
      await expect.poll(() => suite.portal.outboxMails(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
      // The reference is on the confirmation page, as the page with scripts shows it.
      const reference = String(rows[0].reference);
      expect(reference).toMatch(SHORT_REFERENCE);
      expect(main).toContain(`${REFERENCE_TEXT.nl} ${reference}`);
      expect(await shownReference(page)).toEqual({ description: `${REFERENCE_TEXT.nl} ${reference}`, selectable: 'all', value: reference });

      // A reload shows the confirmation again and sends nothing.
      await page.reload();
      expect(await page.textContent('main')).toContain(SUCCESS_TEXT.nl);
      expect((await shownReference(page)).value).toBe(reference);
      // The same page posted twice (back, send again) is still one request.
      await page.goBack();
      expect(suite.portal.storedRequests(email)).toHaveLength(1);
      expectNoPersonalData(urls, [email, 'Jansen', 'Stationsstraat']);
    }, NO_SCRIPT));

  it('the same page posted twice is one request', () =>
    suite.withPage(async (page) => {
      const brand = brandById('ilve');
      const email = uniqueEmail('noscript-twice');
      await page.goto(`${suite.portal.baseUrl}/ilve/nl/be`);
      await fillValues(page, validValues(brand, email));
      const action = new URL(await page.locator('form').evaluate((f: HTMLFormElement) => f.action));
      const key = await page.inputValue('input[name="submission"]');
      expect(key).toMatch(/^[0-9a-f-]{36}$/);
      const fields = await page.locator('form').evaluate((f: HTMLFormElement) =>
        [...f.elements].flatMap((e) => {
          const input = e as HTMLInputElement;
          return input.name && input.type !== 'file' && input.type !== 'submit' ? [[input.name, input.value]] : [];
        }),
      );
      // What a double click or a resend posts: the same form with the same hidden key, twice.
      const post = async () => {
        const body = new FormData();
        for (const [name, value] of fields) body.append(name, value);
        body.append('root_upload_1', new Blob([new Uint8Array(files[0].buffer)], { type: files[0].mimeType }), files[0].name);
        body.append('root_upload_2', new Blob([new Uint8Array(files[1].buffer)], { type: files[1].mimeType }), files[1].name);
        // With the headers the browser sends from the page: the portal refuses posts other sites make.
        const res = await fetch(action, { method: 'POST', body, redirect: 'manual', headers: { origin: action.origin, 'sec-fetch-site': 'same-origin' } });
        return [res.status, res.headers.get('location')];
      };
      const [first, second] = await Promise.all([post(), post()]);
      expect(first).toEqual([303, action.pathname]);
      expect(second).toEqual([303, action.pathname]);
      expect(await post()).toEqual([303, action.pathname]);
      expect(suite.portal.storedRequests(email)).toHaveLength(1);
    }, NO_SCRIPT));
});

describe('a page on another site', () => {
  /** Another site (localhost is not 127.0.0.1's site) whose page posts a complete form to the portal as soon as it loads. */
  async function otherSite(action: string, values: Record<string, string>): Promise<{ url: string; close(): void }> {
    const inputs = Object.entries(values)
      .map(([name, value]) => `<input name="root_${name}" value="${value}">`)
      .join('');
    const photos = files.map((f, i) => ({ id: `root_upload_${i + 1}`, name: f.name, type: f.mimeType, data: f.buffer.toString('base64') }));
    const html = `<!doctype html><html lang="en"><title>Win a prize</title><body>
      <form id="f" method="post" enctype="multipart/form-data" action="${action}">${inputs}
        <input type="file" name="root_upload_1" id="root_upload_1"><input type="file" name="root_upload_2" id="root_upload_2">
        <input type="hidden" name="submission" value="${crypto.randomUUID()}"></form>
      <script>
        for (const p of ${JSON.stringify(photos)}) {
          const bytes = Uint8Array.from(atob(p.data), (c) => c.charCodeAt(0));
          const chosen = new DataTransfer();
          chosen.items.add(new File([bytes], p.name, { type: p.type }));
          document.getElementById(p.id).files = chosen.files;
        }
        document.getElementById('f').submit();
      </script></body></html>`;
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => server.listen(0, resolve));
    return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
  }

  it('that posts the form in its visitor\'s name is refused with a page saying so, and nothing is stored', () =>
    suite.withPage(async (page) => {
      const email = uniqueEmail('other-site');
      const route = `${suite.portal.baseUrl}/ilve/nl/be`;
      const site = await otherSite(route, { ...validValues(brandById('ilve'), email), country: 'be' });
      try {
        const answered = page.waitForResponse((r) => r.url() === route && r.request().method() === 'POST');
        await page.goto(site.url);
        const answer = await answered;
        expect(answer.status()).toBe(403);
        expect((await answer.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
        await page.waitForURL(route);
        const notice = page.locator('main [role="alert"]');
        expect(await notice.locator('h2').textContent()).toBe(TEXTS.nl.notice['cross-site'].title);
        // Nothing the other site sent is shown in the form.
        expect(await page.inputValue(field('last_name'))).toBe('');
        expect(suite.portal.storedRequests(email)).toHaveLength(0);
      } finally {
        site.close();
      }
    }));
});

describe('before the scripts run', () => {
  it('values typed before hydration survive it, and the scripted submit sends them', () =>
    suite.withPage(async (page) => {
      const email = uniqueEmail('early');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/index-*.js', async (route) => {
        await held;
        await route.fallback();
      });
      const urls = recordUrls(page);
      // Module scripts hold DOMContentLoaded back: wait for the prerendered form instead.
      await page.goto(`${suite.portal.baseUrl}/teka/nl/be`, { waitUntil: 'commit' });
      await page.waitForSelector(SUBMIT);
      await page.fill(field('last_name'), 'Vroege Vogel');
      await page.fill(field('client_email'), email);
      await page.fill(field('notification'), 'dealer@');
      release();
      await waitForHydration(page, SUBMIT);
      expect(await page.inputValue(field('last_name'))).toBe('Vroege Vogel');
      expect(await page.inputValue(field('client_email'))).toBe(email);
      // React holds the early values: a submit judges them (no required error for the name, the dealer address refused).
      await page.click(SUBMIT);
      await expect.poll(() => page.locator(fieldError('street_name')).count()).toBe(1);
      expect(await page.locator(fieldError('last_name')).count()).toBe(0);
      expect(await page.locator(fieldError('client_email')).count()).toBe(0);
      expect(await page.locator(fieldError('notification')).textContent()).toContain(message('extended', 'nl', 'format.email'));
      expect(await page.inputValue(field('last_name'))).toBe('Vroege Vogel');
      expectNoPersonalData(urls, [email, 'Vroege Vogel']);
    }));

  it('a page fetches only its loader until the customer acts; what is typed, ticked and chosen while the app is on its way is kept, and one press sends it once', () =>
    suite.withPage(async (page) => {
      const brand = brandById('teka');
      const email = uniqueEmail('first-act');
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/start-*.js', async (route) => {
        await held;
        await route.fallback();
      });
      // Loaded and quiet (no request for 500 ms): the page has asked for its loader only.
      await page.goto(`${suite.portal.baseUrl}/${brand.id}/nl/be`, { waitUntil: 'networkidle' });
      expect(scripts).toEqual([expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/)]);
      // The whole form, as a person fills it, while the app is held on its way.
      await fillValidFields(page, brand, email);
      const photos = form(brand.form).photos;
      for (const [i, photo] of photos.entries()) await page.setInputFiles(field(photo.picker), files[i % files.length]);
      expect(scripts.some((path) => /^\/assets\/start-/.test(path)), 'the first act fetches the app').toBe(true);
      expect(await page.evaluate(hydratedAt, SUBMIT), 'the app is held: the page is still as served').toBe(false);
      release();
      await waitForHydration(page, SUBMIT);
      // The photos chosen meanwhile are sent by the app once it has taken over.
      for (const photo of photos) {
        await page.waitForFunction((sel) => Boolean(document.querySelector<HTMLInputElement>(sel)?.value), field(photo.target), { timeout: 15_000 });
      }
      expect(await page.inputValue(field('last_name'))).toBe(validValues(brand, email).last_name);
      await page.click(SUBMIT);
      await page.waitForSelector(`main :text("${SUCCESS_TEXT.nl}")`, { timeout: 15_000 });
      const rows = suite.portal.storedRequests(email);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload).toMatchObject({ last_name: validValues(brand, email).last_name, client_email: email });
    }));

  it('a press of Verzenden before the scripts run posts (never a GET with the values) and keeps them', () =>
    suite.withPage(async (page) => {
      await page.route('**/assets/index-*.js', () => new Promise(() => undefined));
      const urls = recordUrls(page);
      await page.goto(`${suite.portal.baseUrl}/kuppersbusch/nl/be`, { waitUntil: 'commit' });
      await page.waitForSelector(SUBMIT);
      await page.fill(field('last_name'), 'Haastig');
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click(SUBMIT, { noWaitAfter: true })]);
      await page.waitForSelector('.error-summary');
      expect(page.url()).toBe(`${suite.portal.baseUrl}/kuppersbusch/nl/be`);
      expect(await page.inputValue(field('last_name'))).toBe('Haastig');
      expect(await page.textContent('main')).toContain(SUMMARY_TEXT.nl);
      expectNoPersonalData(urls, ['Haastig']);
    }));
});
