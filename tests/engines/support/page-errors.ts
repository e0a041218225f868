/**
 * What the page reports as a script problem, in every engine: uncaught
 * errors, unhandled rejections, console.error, CSP violations (a blocked
 * inline style or script shows up only there).
 */

/** Init script (Chromium, Firefox): CSP violations become console errors, which the adapters collect. */
export function reportCspViolations(): void {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
  });
}

/**
 * WebKit: classic WebDriver has no console or error events, so this is run in
 * the page after each load and the adapter reads `window.__engineErrors`.
 * Errors thrown before it is installed are missed (cross-engine.md).
 */
export function installErrorCollector(): void {
  const w = window as unknown as { __engineErrors?: string[] };
  if (w.__engineErrors) return;
  const errors: string[] = [];
  w.__engineErrors = errors;
  window.addEventListener('error', (e) => errors.push(`pageerror: ${e.message}`));
  window.addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${String(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) => errors.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    errors.push(`console: ${args.map(String).join(' ')}`);
    original(...args);
  };
}

/** Chromium's own notice of an HTTP error answer is no script error: the page handles those answers itself. */
export const isNetworkNotice = (text: string) => text.startsWith('Failed to load resource:');
