/** The engines the journeys run in, by name; each project of vitest.engines.config.ts names one. */
import type { BrowserOptions, EngineBrowser, EngineName } from './driver';

export async function launchEngine(name: EngineName, options: BrowserOptions): Promise<EngineBrowser> {
  const adapter = {
    chromium: () => import('./chromium'),
    firefox: () => import('./firefox'),
    webkit: () => import('./webkit'),
  }[name];
  return (await adapter()).launch(options);
}
