import { join, sep } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { BrandCheckError, brandProblemLines } from '../checked-brands.ts';

const VIRTUAL_MODULES = ['\0virtual:brand-themes.css', '\0virtual:brand-routes'];

/**
 * `npm run dev`: a brand file that does not parse or validate shows
 * validate's own message in Vite's error overlay (not a white page and a
 * stack trace in the terminal), and the page reloads once it is fixed.
 */
export function brandCheckOverlay(root: string, brandsDir: string): Plugin {
  const folder = brandsDir + sep;
  const watched = [folder, join(root, 'schemas') + sep];
  let broken = false;

  const recheck = (server: ViteDevServer, file: string, event: string) => {
    if (!watched.some((dir) => file.startsWith(dir))) return;
    const graph = server.environments.client.moduleGraph;
    for (const id of VIRTUAL_MODULES) {
      const module = graph.getModuleById(id);
      if (module) graph.invalidateModule(module);
    }
    const lines = brandProblemLines(root, brandsDir);
    if (lines.length > 0) {
      broken = true;
      server.ws.send({ type: 'error', err: { message: new BrandCheckError(lines).message, stack: '', plugin: 'repair-portal:brand-check' } });
    } else if (broken || event !== 'change') {
      // Recovered, or a brand came or went: the routes and themes changed, so load the page afresh.
      broken = false;
      server.ws.send({ type: 'full-reload', path: '*' });
    }
  };

  return {
    name: 'repair-portal:brand-check',
    apply: 'serve',
    // Before vite:json, whose "Failed to parse JSON file" would say less than validate does.
    enforce: 'pre',
    transform(_code, id) {
      if (!id.startsWith(folder) || !id.endsWith('.json')) return undefined;
      const lines = brandProblemLines(root, brandsDir);
      if (lines.length > 0) throw new BrandCheckError(lines);
      return undefined;
    },
    configureServer(server) {
      server.watcher.add(watched);
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file) => recheck(server, file, event));
    },
  };
}
