/**
 * A person's press on a control, as primitive steps another browser harness
 * (puppeteer-core, WebDriver actions) can repeat one for one: scroll the
 * control into view, take its box, move to its centre, press, hold, release.
 * What the page shows is read with small scripts (`page.evaluate`).
 */
import type { Page } from 'playwright-core';

/** How long a person holds a mouse button or a finger down (80–250 ms). */
export const HUMAN_HOLD_MS = 150;

/** Two stacked viewports: tall, so scroll anchoring cannot hide a shift; a phone, pressed with a finger. */
export const TALL = { viewport: { width: 1280, height: 3600 } };
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export interface PressResult {
  /** How far the control's top edge moved between the press and its release (px; 0 when not measured). */
  moved: number;
  /** Where the click the release made landed: 'control' (the control or inside it), another element, or 'none'. */
  click: string;
}

type Point = { x: number; y: number };

/** Scrolls the control to the middle of the viewport unless it is wholly in view, and gives its centre. */
export async function centreOf(page: Page, selector: string): Promise<Point> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`${sel} is not in the page`);
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) el.scrollIntoView({ block: 'center' });
    const box = el.getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }, selector);
}

/** The control's top edge in the viewport now. */
export async function topOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => document.querySelector(sel)!.getBoundingClientRect().top, selector);
}

/** From now on, the page notes where the next click lands (read it with `clickLanding`). */
export async function noteNextClick(page: Page, selector: string): Promise<void> {
  await page.evaluate((sel) => {
    const w = window as unknown as { __pressClick?: string };
    const control = document.querySelector(sel);
    w.__pressClick = 'none';
    const note = (event: Event) => {
      const target = event.target as Element;
      w.__pressClick = control?.contains(target) ? 'control' : `${target.tagName.toLowerCase()}${target.id ? `#${target.id}` : ''}`;
    };
    addEventListener('click', note, { capture: true, once: true });
  }, selector);
}

export async function clickLanding(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { __pressClick?: string }).__pressClick ?? 'none');
}

/** Mouse: move to the control's centre, down, hold `holdMs`, up. */
export async function mousePress(page: Page, selector: string, holdMs = HUMAN_HOLD_MS): Promise<PressResult> {
  const { x, y } = await centreOf(page, selector);
  await noteNextClick(page, selector);
  const before = await topOf(page, selector);
  await page.mouse.move(x, y);
  await page.mouse.down();
  let moved = 0;
  if (holdMs > 0) {
    await page.waitForTimeout(holdMs);
    moved = (await topOf(page, selector)) - before;
  }
  await page.mouse.up();
  return { moved, click: await clickLanding(page) };
}

/** Finger (the context needs `hasTouch`): touch the control's centre, hold `holdMs`, lift. Chromium's own touch input (CDP). */
export async function touchPress(page: Page, selector: string, holdMs = HUMAN_HOLD_MS): Promise<PressResult> {
  const { x, y } = await centreOf(page, selector);
  await noteNextClick(page, selector);
  const before = await topOf(page, selector);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    let moved = 0;
    if (holdMs > 0) {
      await page.waitForTimeout(holdMs);
      moved = (await topOf(page, selector)) - before;
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    // The tap's mouse events and click follow the lifted finger.
    await page.waitForTimeout(50);
    return { moved, click: await clickLanding(page) };
  } finally {
    await cdp.detach();
  }
}
