/**
 * Reads and focus moves that every adapter does the same way: a synchronous
 * script in the page (it runs with page scripts off too), so each engine
 * reads the DOM alike. Each function stands alone: it is sent to the page as
 * text, without the test's closures (and the page's CSP forbids eval).
 */
import type { Driver } from './driver';

type Reads = Pick<Driver, 'text' | 'attribute' | 'value' | 'checked' | 'count' | 'blur'>;
type Query = { selector: string; name?: string };

export function domReads(evaluate: Driver['evaluate']): Reads {
  return {
    text: (selector) =>
      evaluate(({ selector }: Query) => {
        const el = document.querySelector(selector);
        if (!el) throw new Error(`nothing matches ${selector}`);
        return el.textContent ?? '';
      }, { selector }),
    attribute: (selector, name) =>
      evaluate(({ selector, name }: Query) => {
        const el = document.querySelector(selector);
        if (!el) throw new Error(`nothing matches ${selector}`);
        return el.getAttribute(name!);
      }, { selector, name }),
    value: (selector) =>
      evaluate(({ selector }: Query) => {
        const el = document.querySelector<HTMLInputElement>(selector);
        if (!el) throw new Error(`nothing matches ${selector}`);
        return el.value;
      }, { selector }),
    checked: (selector) =>
      evaluate(({ selector }: Query) => {
        const el = document.querySelector<HTMLInputElement>(selector);
        if (!el) throw new Error(`nothing matches ${selector}`);
        return el.checked;
      }, { selector }),
    count: (selector) => evaluate(({ selector }: Query) => document.querySelectorAll(selector).length, { selector }),
    blur: (selector) =>
      evaluate(({ selector }: Query) => {
        const el = document.querySelector<HTMLElement>(selector);
        if (!el) throw new Error(`nothing matches ${selector}`);
        el.blur();
      }, { selector }),
  };
}

/** Scrolls the element into view if it is not; whether the page moved. Sent to the page as it stands. */
export function scrollIntoViewIfNeeded(selector: string): boolean {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`nothing matches ${selector}`);
  const before = [window.scrollX, window.scrollY];
  el.scrollIntoView({ block: 'nearest' });
  return window.scrollX !== before[0] || window.scrollY !== before[1];
}

/** The element's box in the viewport. Sent to the page as it stands. */
export function boxOf(selector: string): { x: number; y: number; width: number; height: number } {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`nothing matches ${selector}`);
  const { x, y, width, height } = el.getBoundingClientRect();
  if (width === 0 || height === 0) throw new Error(`${selector} is not visible`);
  return { x, y, width, height };
}
