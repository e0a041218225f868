/**
 * Finding controls as a person does, by what they are and what they are called: a button, link or
 * heading by its text, a field by its label, a checkbox by its label. The match is marked in the page
 * (data-found) and its selector returned, for the driver's own click, fill or upload; no test ids in
 * the product. Each function is sent to the page as text (no closures).
 */
import type { Driver } from './driver';

type Role = 'button' | 'link' | 'heading' | 'field' | 'checkbox' | 'radio' | 'group';
interface Query {
  role: Role;
  name: string;
  /** Inside the first element this selector matches (the open dialog, a fieldset). */
  within?: string;
  mark: string;
}

let marks = 0;

/** The selector of the control of `role` whose accessible name is `name` (exactly, spaces folded); throws when there is none. */
export async function byRole(page: Driver, role: Role, name: string, within?: string): Promise<string> {
  const mark = `m${++marks}`;
  const found = await page.evaluate(({ role, name, within, mark }: Query) => {
    const fold = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
    const scope = within ? document.querySelector(within) : document;
    if (!scope) return `nothing matches ${within}`;
    // What a screen reader reads of an element: its text without what is hidden from it (a required field's *).
    const spoken = (el: Element | null | undefined) => {
      if (!el) return '';
      const copy = el.cloneNode(true) as Element;
      copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
      return fold(copy.textContent);
    };
    const labelOf = (el: Element): string => {
      const labelledBy = el.getAttribute('aria-labelledby');
      if (labelledBy) return fold(labelledBy.split(' ').map((id) => document.getElementById(id)?.textContent).join(' '));
      if (el.getAttribute('aria-label')) return fold(el.getAttribute('aria-label'));
      const id = el.getAttribute('id');
      const label = (id && document.querySelector(`label[for="${CSS.escape(id)}"]`)) || el.closest('label');
      return spoken(label);
    };
    const candidates: Record<Role, string> = {
      button: 'button, [role="button"], input[type="submit"]',
      link: 'a[href]',
      heading: 'h1, h2, h3, h4, h5, h6',
      field: 'input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]), textarea, select',
      checkbox: 'input[type="checkbox"]',
      radio: 'input[type="radio"]',
      group: 'fieldset',
    };
    const nameOf = (el: Element) =>
      role === 'group' ? spoken(el.querySelector('legend')) : role === 'field' || role === 'checkbox' || role === 'radio' ? labelOf(el) : fold(el.getAttribute('aria-label')) || spoken(el);
    const matches = [...scope.querySelectorAll(candidates[role])].filter((el) => nameOf(el) === name && (el as HTMLElement).offsetParent !== null);
    if (matches.length === 0) return `no ${role} named "${name}"`;
    matches[0].setAttribute('data-found', mark);
    return '';
  }, { role, name, within, mark });
  if (found) throw new Error(found);
  return `[data-found="${mark}"]`;
}
