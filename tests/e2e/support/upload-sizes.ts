import type { Page } from 'playwright-core';

/**
 * Records the size of every file the page hands to XMLHttpRequest (the photo
 * uploads): what goes on the wire, which CDP does not report for blob bodies.
 */
export async function recordUploadSizes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __uploadSizes: number[] };
    w.__uploadSizes = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      if (body instanceof FormData) for (const [, value] of body) if (value instanceof Blob) w.__uploadSizes.push(value.size);
      return send.call(this, body as XMLHttpRequestBodyInit);
    };
  });
}

export function uploadSizes(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __uploadSizes: number[] }).__uploadSizes);
}
