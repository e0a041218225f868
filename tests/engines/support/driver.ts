/**
 * The one interface the cross-engine journeys are written against. Each
 * engine has an adapter (chromium.ts, firefox.ts, webkit.ts); nothing else in
 * tests/engines knows which browser it drives.
 */

export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export interface BrowserOptions {
  /** false: the whole browser runs without page scripts (the no-script path). */
  javaScript: boolean;
}

export interface Viewport {
  width: number;
  height: number;
}

/** One running browser, started once per test file. */
export interface EngineBrowser {
  /** A page with its own cookies and storage: one per test. */
  newPage(viewport: Viewport): Promise<Driver>;
  close(): Promise<void>;
}

/** A page of one engine. Selectors are CSS; each call acts on the first match. */
export interface Driver {
  /** Loads the URL and waits for the load event. */
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Replaces the field's value by typing, as a person does (input events for every character). */
  fill(selector: string, value: string): Promise<void>;
  /** Moves focus out of the element (its blur and focusout fire). */
  blur(selector: string): Promise<void>;
  /**
   * Scrolls the element into view if it is not, and returns once the browser
   * hit-tests at the new place (Firefox's pointer lagged a fresh scroll).
   */
  reveal(selector: string): Promise<void>;
  /** The driver's own click on the element (scrolled into view, at its centre). */
  click(selector: string): Promise<void>;
  selectOption(selector: string, value: string): Promise<void>;
  /**
   * A human press at a point of the viewport: the pointer moves there, goes
   * down, stays down `holdMs`, comes up where it is.
   */
  press(x: number, y: number, holdMs: number): Promise<void>;
  /** Chooses files (absolute paths) in a file input, as the browser's picker does. */
  upload(selector: string, paths: string[]): Promise<void>;
  /** textContent of the first match; throws when nothing matches. */
  text(selector: string): Promise<string>;
  attribute(selector: string, name: string): Promise<string | null>;
  /** The live value of an input, select or textarea. */
  value(selector: string): Promise<string>;
  checked(selector: string): Promise<boolean>;
  count(selector: string): Promise<number>;
  /**
   * Runs `fn` in the page (serialised: no closures) and returns its
   * JSON-able result. Synchronous functions only, so it works with page
   * scripts off too (WebKit cannot await there).
   */
  evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<R>;
  /**
   * Uncaught errors, unhandled rejections, console errors and CSP violations
   * seen since the page opened (WebKit: since each load, see webkit.ts).
   */
  jsErrors(): Promise<string[]>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}
