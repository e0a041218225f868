/**
 * Phone photos shrink in the browser before upload: a 12 MP JPEG goes up
 * scaled to 2,560 px on its longest side with its orientation applied, a
 * small photo goes as it is, and the shrinking code loads only once a photo
 * is chosen.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { phonePhoto } from '../../bench/phone-photo';
import { brandById, photoFiles, photosOf } from './support/fixtures';
import { SUBMIT, field, openBrandPage, uploadPhoto, waitForHydration } from './support/form-page';
import { browserSuite } from './support/suite';
import { recordUploadSizes, uploadSizes } from './support/upload-sizes';

const suite = browserSuite();

describe('photos shrink before upload', () => {
  it('a 12 MP phone photo goes up at most 2,560 px, upright, and much smaller; its code loads only then', () =>
    suite.withPage(async (page) => {
      await recordUploadSizes(page);
      const scripts: string[] = [];
      page.on('request', (r) => scripts.push(r.url()));
      await openBrandPage(page, suite.portal.baseUrl, 'ilve', 'nl', 'be');
      expect(scripts.filter((u) => /shrink/.test(u))).toEqual([]);

      const original = await phonePhoto();
      expect(original.length).toBeGreaterThan(4_000_000);
      const name = await uploadPhoto(page, photosOf(brandById('ilve'))[0], { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: original });
      expect(scripts.some((u) => /shrink-photo/.test(u))).toBe(true);
      const [sent] = await uploadSizes(page);
      expect(sent).toBeLessThan(1_200_000);

      const stored = await sharp(join(suite.portal.dataDir, 'photos', name)).metadata();
      // 4000×3000 with EXIF orientation 6 is a portrait photo: 1920×2560 once upright and scaled.
      expect([stored.width, stored.height]).toEqual([1920, 2560]);
      expect(await page.textContent('.field--photo')).toContain('IMG_0001');
    }));

  it('a small photo is sent as it is', () =>
    suite.withPage(async (page) => {
      await recordUploadSizes(page);
      await openBrandPage(page, suite.portal.baseUrl, 'ilve', 'nl', 'be');
      const [small] = await photoFiles();
      await uploadPhoto(page, photosOf(brandById('ilve'))[0], small);
      expect(await uploadSizes(page)).toEqual([small.buffer.length]);
      expect(readdirSync(join(suite.portal.dataDir, 'photos')).length).toBeGreaterThan(0);
      expect(await page.inputValue(field('image1'))).toMatch(/\.jpg$/);
    }));

  it("after a reload the chosen photo's thumbnail comes back with its name", () =>
    suite.withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'airodesign', 'nl', 'be');
      const [small] = await photoFiles();
      await uploadPhoto(page, photosOf(brandById('airodesign'))[0], small);
      await page.waitForFunction(() => Object.keys(sessionStorage).some((k) => k.includes('thumbnails')));
      await page.reload();
      await waitForHydration(page, SUBMIT);
      const thumb = page.locator('.field--photo .photo__thumb').first();
      await thumb.waitFor({ timeout: 10_000 });
      expect(await thumb.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
      expect(await page.locator('.field--photo').first().textContent()).toContain(small.name);
      // A real picture, decoded by the browser.
      expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(128);
    }));
});
