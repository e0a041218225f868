/**
 * The only test of the shipped brands (brands/): each validates (checked
 * before the build, support/shipped-build.ts) and serves. Every page of every
 * shipped brand answers 200 with its form, from the real build of brands/
 * and the real server. What a brand's pages say is tested on the spec's
 * brands (tests/fixtures/brands/spec), so a brand added, changed or removed
 * as data passes here without a change to any test.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SHIPPED_BUILD } from './support/paths';
import { startPortal, type Portal } from './support/portal';

describe('the shipped brands', () => {
  const pages = inject('shippedPages');
  let portal: Portal;

  beforeAll(async () => {
    portal = await startPortal({ WEB_ROOT: inject('shippedWebRoot'), BRANDS_DIR: SHIPPED_BUILD.brandsDir });
  });
  afterAll(() => portal?.stop());

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
});
