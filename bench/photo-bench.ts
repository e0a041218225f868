/**
 * A customer's phone photo through the page, against the real intake server:
 * a 12 MP JPEG of 4–6 MB is chosen in Chromium with the uplink emulated at
 * 1.5 Mbit/s; the figures are the bytes the upload request carried (after
 * the page shrank the photo) and the time from choosing to the stored name.
 */
import type { Browser } from 'playwright-core';
import { field, openBrandPage } from '../tests/e2e/support/form-page';
import type { Portal } from '../tests/e2e/support/portal';
import { recordUploadSizes, uploadSizes } from '../tests/e2e/support/upload-sizes';
import type { BenchFigure } from './figures';
import { phonePhoto } from './phone-photo';

const UPLINK_BITS_PER_SECOND = 1_500_000;

export async function photoUploadFigures(browser: Browser, portal: Portal): Promise<BenchFigure[]> {
  const original = await phonePhoto();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await recordUploadSizes(page);
    await openBrandPage(page, portal.baseUrl, 'ilve', 'nl', 'be');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 10_000_000 / 8,
      uploadThroughput: UPLINK_BITS_PER_SECOND / 8,
    });
    const started = Date.now();
    await page.setInputFiles(field('upload_1'), { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: original });
    await page.waitForFunction((sel) => Boolean(document.querySelector<HTMLInputElement>(sel)?.value), field('image1'), {
      timeout: 180_000,
    });
    const seconds = (Date.now() - started) / 1000;
    const sent = (await uploadSizes(page)).reduce((a, b) => a + b, 0);
    const mb = (bytes: number) => Math.round(bytes / 10_000) / 100;
    return [
      {
        name: `Bytes sent for a 12 MP phone JPEG of ${mb(original.length)} MB`,
        value: mb(sent),
        unit: 'MB',
        budgetKey: 'web.photoUploadMb',
        better: 'lower',
        detail: `photo bytes in the upload request; ${Math.round((100 * sent) / original.length)}% of the original`,
      },
      {
        name: 'Photo chosen → stored, 1.5 Mbit/s uplink',
        value: Math.round(seconds * 10) / 10,
        unit: 's',
        budgetKey: 'web.photoUploadSeconds',
        better: 'lower',
        detail: `the original alone would take ${Math.round((original.length * 8) / UPLINK_BITS_PER_SECOND)} s on this uplink`,
      },
    ];
  } finally {
    await context.close();
  }
}
