import 'virtual:brand-themes.css';
import './styles.css';
import { FORM_SEED_ELEMENT_ID } from '../core/form-seed';
import { keptInThisTab } from './form/draft-storage';

/**
 * The prerendered page works before any script runs: a customer can read it,
 * type, tick, choose photos and send it as it is. So its scripts are fetched
 * when the customer first does something on it (a press, a key, a focus, an
 * input), not while a slow phone is still showing it, and the app then picks
 * up what was done meanwhile (hooks/use-pickup.ts). The page starts at once
 * when the customer acted before this loader arrived, or when it has something
 * only the app can show: no prerendered markup (npm run dev), a seed from a
 * post without scripts, or a draft or sent state kept in this tab.
 */
const FIRST_ACTS = ['pointerdown', 'keydown', 'focusin', 'input', 'change'] as const;

function start() {
  const modules = document.querySelector<HTMLMetaElement>('meta[name="portal:modules"]')?.content.split(' ') ?? [];
  for (const href of modules) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
  void stages();
}

/** Hands the main thread back to the browser (a tap, a paint) between two steps. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Evaluating all modules at once was one task of 130 ms under Lighthouse's 4x slowdown: each
// import now evaluates its own in a task, React's first, then the app's (which hydrates).
async function stages() {
  await import('react-dom/client');
  await yieldToBrowser();
  await import('./start');
}

/** A control no longer as the server rendered it: typed into, ticked, chosen. */
function changed(control: Element): boolean {
  if (control instanceof HTMLInputElement) {
    if (control.type === 'checkbox' || control.type === 'radio') return control.checked !== control.defaultChecked;
    if (control.type === 'file') return (control.files?.length ?? 0) > 0;
    return control.value !== control.defaultValue;
  }
  if (control instanceof HTMLTextAreaElement) return control.value !== control.defaultValue;
  if (control instanceof HTMLSelectElement) return [...control.options].some((option) => option.selected !== option.defaultSelected);
  return false;
}

/** The customer acted before this loader arrived (a slow line): something has focus, or a control was changed. */
function actedAlready(): boolean {
  const focused = document.activeElement;
  if (focused && focused !== document.body && focused !== document.documentElement) return true;
  return [...document.querySelectorAll('input, select, textarea')].some(changed);
}

function startOnFirstAct() {
  const once = () => {
    for (const type of FIRST_ACTS) removeEventListener(type, once, true);
    start();
  };
  for (const type of FIRST_ACTS) addEventListener(type, once, { capture: true, passive: true });
}

const prerendered = Boolean(document.getElementById('root')?.firstElementChild);
if (prerendered && !document.getElementById(FORM_SEED_ELEMENT_ID) && !keptInThisTab() && !actedAlready()) startOnFirstAct();
// Only the app can show this page: after its first frame (a hidden tab paints none: at once).
else if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start, 0));
