/**
 * The only tests of the shipped data (brands/ and schemas/): it validates
 * (checked before the build, support/shipped-build.ts), every page of every
 * shipped brand answers 200 with its form, and a request made from each
 * brand's form (tests/support/sample-request.ts: every field it has, its
 * photos) is accepted by the real server built from that data and reaches
 * the brand's desk by mail (a real SMTP server), with every photo attached.
 * What pages, forms and mails say is tested on the spec's brands and data
 * (tests/fixtures/), so brands, forms, fields, texts, languages and
 * countries added, changed or removed as data pass here without a change to
 * any test.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brandLocales } from '../../src/core/locale';
import { sampleRequest } from '../support/sample-request';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { photo } from './support/fixtures';
import { SHIPPED_BUILD } from './support/paths';
import { startPortal, type Portal } from './support/portal';

describe('the shipped brands and data', () => {
  const pages = inject('shippedPages');
  const brands = inject('shippedBrands');
  let portal: Portal;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    portal = await startPortal({
      WEB_ROOT: inject('shippedWebRoot'),
      BRANDS_DIR: SHIPPED_BUILD.brandsDir,
      SCHEMAS_DIR: SHIPPED_BUILD.schemasDir,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'service@portal.example.com',
    });
  });
  afterAll(async () => {
    await portal?.stop();
    await smtp?.close();
  });

  it('have pages', () => {
    expect(pages.length).toBeGreaterThan(0);
  });

  it.each(pages)('%s answers 200 with the form, which posts to that page', async (path) => {
    const response = await fetch(`${portal.baseUrl}${path}`);
    expect(response.status, portal.log()).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const form = /<form\b[^>]*>/.exec(html)?.[0];
    expect(form).toContain(`action="${path}"`);
    expect(form).toContain('method="post"');
    expect(html).toMatch(/<button type="submit"[^>]*>/);
  });

  async function uploaded(): Promise<string> {
    const body = new FormData();
    body.append('image', new Blob([new Uint8Array(await photo('jpeg'))], { type: 'image/jpeg' }), 'foto.jpg');
    const response = await fetch(`${portal.baseUrl}/api/forms/images`, { method: 'POST', body, headers: { accept: 'application/json' } });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { filename: string }).filename;
  }

  it.each(brands.map((shipped) => [shipped.brand.id, shipped] as const))(
    '%s: a request made from its form, photos included, is accepted and reaches the desk with every photo',
    async (_id, { brand, form }) => {
      // The brand's last language and country: the newest, where one was added.
      const locale = brandLocales(brand).at(-1)!;
      const country = brand.countries.at(-1)!;
      const email = `shipped-${brand.id}@example.com`;
      const photos = await Promise.all(form.photos.map(() => uploaded()));
      const body = sampleRequest(form, inject('shippedRules'), { brand, locale, country, photos, email });
      const response = await fetch(`${portal.baseUrl}/api/forms/${brand.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-portal-locale': locale },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const { reference } = (await response.json()) as { reference: string };
      const desk = await smtp.waitFor((mail: ParsedMail) => mail.subject?.includes(reference) === true && brand.serviceDesk.emails.some((to) => JSON.stringify(mail.to).includes(to)), 60_000);
      expect(desk.replyTo?.value[0].address).toBe(email);
      expect(desk.attachments.map((a) => a.contentType)).toEqual(form.photos.map(() => 'image/jpeg'));
      expect(desk.text).toContain(reference);
    },
  );
});
