import { join, sep } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { ProjectCheckError, projectProblemLines, type DataFolders } from '../checked-project.ts';

/** The modules made from the data (brand-modules.ts, portal-data-modules.ts): made anew after any change to it. */
const madeFromData = (id: string) => id.startsWith('\0virtual:brand-') || id.startsWith('\0virtual:portal-');

/**
 * `npm run dev`: a brand file, form, language file or countries.json that
 * does not parse or validate shows validate's own message in Vite's error
 * overlay (not a white page and a stack trace in the terminal), and the page
 * loads afresh once it is fixed, or once any of the data changed.
 */
export function dataCheckOverlay(root: string, { brandsDir, schemasDir }: DataFolders): Plugin {
  const brandFolder = brandsDir + sep;
  const watched = [brandFolder, schemasDir + sep, join(root, 'schemas', 'brand.schema.json')];
  let broken = false;

  const recheck = (server: ViteDevServer, file: string, event: string) => {
    if (!watched.some((path) => file === path || file.startsWith(path))) return;
    const graph = server.environments.client.moduleGraph;
    for (const [id, module] of graph.idToModuleMap) if (madeFromData(id)) graph.invalidateModule(module);
    const lines = projectProblemLines(root, { brandsDir, schemasDir });
    if (lines.length > 0) {
      broken = true;
      server.ws.send({ type: 'error', err: { message: new ProjectCheckError(lines).message, stack: '', plugin: 'repair-portal:data-check' } });
    } else if (broken || event !== 'change' || !file.startsWith(brandFolder)) {
      // Recovered, a brand came or went, or the forms, texts or countries changed (no module of the page is
      // their file, so Vite's own update does not see them): load the page afresh.
      broken = false;
      server.ws.send({ type: 'full-reload', path: '*' });
    }
  };

  return {
    name: 'repair-portal:data-check',
    apply: 'serve',
    // Before vite:json, whose "Failed to parse JSON file" would say less than validate does.
    enforce: 'pre',
    transform(_code, id) {
      if (!id.startsWith(brandFolder) || !id.endsWith('.json')) return undefined;
      const lines = projectProblemLines(root, { brandsDir, schemasDir });
      if (lines.length > 0) throw new ProjectCheckError(lines);
      return undefined;
    },
    configureServer(server) {
      server.watcher.add(watched);
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file) => recheck(server, file, event));
    },
  };
}
