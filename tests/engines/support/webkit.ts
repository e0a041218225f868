/**
 * WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver starts MiniBrowser),
 * driven by webdriverio over classic WebDriver. MiniBrowser has no headless
 * mode: each browser gets its own Xvfb display, so nothing depends on the
 * caller's DISPLAY or on xvfb-run. The driver and the display are killed on
 * close and, should close never come, when the test process exits: an
 * orphaned driver keeps its port and hangs the next run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { remote } from 'webdriverio';
import { freePort } from '../../support/free-port';
import { domReads, scrollIntoViewIfNeeded } from './dom-reads';
import type { BrowserOptions, Driver, EngineBrowser } from './driver';
import { installErrorCollector } from './page-errors';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

const KEY = { control: '\uE009', backspace: '\uE003' };

/** Starts Xvfb on the first free display (-displayfd answers with its number once it accepts clients). */
async function startDisplay(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x4000x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display within 10 s: ${stderr}`)), 10_000);
    xvfb.once('error', (err) => reject(new Error(`Xvfb did not start (is the xvfb package installed?): ${err.message}`)));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${stderr}`)));
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
  });
  return { display, process: xvfb };
}

async function startDriver(display: string): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } });
  const failed = new Promise<never>((_, reject) => {
    driver.once('error', (err) => reject(new Error(`WebKitWebDriver did not start: ${err.message}`)));
    driver.once('exit', (code) => reject(new Error(`WebKitWebDriver exited with ${code}`)));
  });
  failed.catch(() => undefined);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const up = await Promise.race([
      fetch(`http://127.0.0.1:${port}/status`).then(() => true, () => false),
      failed,
    ]);
    if (up) return { port, process: driver };
    await new Promise((r) => setTimeout(r, 100));
  }
  driver.kill('SIGKILL');
  throw new Error('WebKitWebDriver did not answer within 10 s');
}

export async function launch(options: BrowserOptions): Promise<EngineBrowser> {
  const children: ChildProcess[] = [];
  const killAll = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
  process.once('exit', killAll);
  try {
    const display = await startDisplay();
    children.push(display.process);
    const driver = await startDriver(display.display);
    children.unshift(driver.process);
    return {
      newPage: (viewport) => openSession(driver.port, options, viewport),
      async close() {
        killAll();
        process.off('exit', killAll);
      },
    };
  } catch (err) {
    killAll();
    process.off('exit', killAll);
    throw err;
  }
}

/** A session is a fresh MiniBrowser (own cookies and storage), about 0.4 s to start. */
async function openSession(port: number, options: BrowserOptions, viewport: { width: number; height: number }): Promise<Driver> {
  const args = options.javaScript ? ['--automation'] : ['--automation', '--enable-javascript=false'];
  const b = await remote({
    hostname: '127.0.0.1',
    port,
    path: '/',
    logLevel: 'error',
    // No browserName: with one, webdriverio asks for BiDi, which WebKitWebDriver refuses.
    capabilities: { 'wdio:enforceWebDriverClassic': true, 'webkitgtk:browserOptions': { args } } as WebdriverIO.Capabilities,
  });
  const evaluate: Driver['evaluate'] = (fn, arg) => b.execute(fn as never, arg) as never;
  // The window includes MiniBrowser's toolbar: grow it until the page itself has the size asked for.
  await b.setWindowSize(viewport.width, viewport.height);
  const inner = await evaluate(() => [window.innerWidth, window.innerHeight]);
  await b.setWindowSize(viewport.width * 2 - inner[0], viewport.height * 2 - inner[1]);

  const earlier: string[] = [];
  const current = async () => (await evaluate(() => (window as unknown as { __engineErrors?: string[] }).__engineErrors ?? [])) ?? [];
  const element = async (selector: string) => {
    const found = await b.findElement('css selector', selector);
    if ('error' in found) throw new Error(`nothing matches ${selector}`);
    return found as unknown as Record<string, string>;
  };
  const elementId = (ref: Record<string, string>) => Object.values(ref)[0];

  return {
    ...domReads(evaluate),
    evaluate,
    async goto(url) {
      if (options.javaScript) earlier.push(...(await current().catch(() => [])));
      await b.url(url);
      if (options.javaScript) await evaluate(installErrorCollector);
    },
    url: () => b.getUrl(),
    async fill(selector, value) {
      const id = elementId(await element(selector));
      await evaluate(({ selector }) => document.querySelector<HTMLElement>(selector)!.focus(), { selector });
      if ((await b.getElementProperty(id, 'value')) !== '') {
        await b.performActions([
          {
            type: 'key',
            id: 'keyboard',
            actions: [
              { type: 'keyDown', value: KEY.control },
              { type: 'keyDown', value: 'a' },
              { type: 'keyUp', value: 'a' },
              { type: 'keyUp', value: KEY.control },
              { type: 'keyDown', value: KEY.backspace },
              { type: 'keyUp', value: KEY.backspace },
            ],
          },
        ]);
        await b.releaseActions();
      }
      if (value) await b.elementSendKeys(id, value);
    },
    async reveal(selector) {
      for (let tries = 0; tries < 5 && (await evaluate(scrollIntoViewIfNeeded, selector)); tries++) {
        if (options.javaScript) await b.executeAsync((done: () => void) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
        else await new Promise((r) => setTimeout(r, 100));
      }
    },
    async click(selector) {
      await b.elementClick(elementId(await element(selector)));
    },
    async selectOption(selector, value) {
      await b.$(selector).selectByAttribute('value', value);
    },
    async press(x, y, holdMs) {
      await b.performActions([
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            { type: 'pointerMove', origin: 'viewport', x: Math.round(x), y: Math.round(y), duration: 0 },
            { type: 'pointerDown', button: 0 },
            { type: 'pause', duration: holdMs },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ]);
      await b.releaseActions();
    },
    async upload(selector, paths) {
      await b.elementSendKeys(elementId(await element(selector)), paths.join('\n'));
    },
    jsErrors: async () => [...earlier, ...(options.javaScript ? await current() : [])],
    async screenshot(path) {
      // Once seen: a screenshot from before the last change. Two frames give the page time to paint.
      if (options.javaScript) {
        await b.executeAsync((done: () => void) => requestAnimationFrame(() => requestAnimationFrame(() => done()))).catch(() => undefined);
      }
      await b.saveScreenshot(path);
    },
    async close() {
      await b.deleteSession();
    },
  };
}
