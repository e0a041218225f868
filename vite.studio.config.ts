import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig, type UserConfig } from 'vite';
import { RJSF_SAME_DOCUMENT_URI } from './src/cli/vite/same-document-uri.ts';
import { studioSnapshot } from './src/cli/vite/studio-project.ts';
import { portalBuildOf, portalViteConfig, type PortalBuild } from './vite.config.ts';

const root = fileURLToPath(new URL('./', import.meta.url));

/** Where the studio's own files are (its two pages), and where its build goes: beside the pages it previews. */
export const STUDIO_SOURCE = join(root, 'src/studio');
export const studioOutDir = (webRoot: string): string => join(webRoot, 'studio');

/**
 * The brand studio as static files (`npm run build`): its page and the preview frame, which renders
 * the portal's own page components, so the portal's plugins make their modules here too. A bundle of
 * its own: nothing of it enters a customer's page. Relative addresses, so any static host can serve
 * the folder at any path.
 */
export function studioViteConfig(build: PortalBuild): UserConfig {
  const portal = portalViteConfig(build);
  // The studio resolves the rule files' absolute $ids (brand.schema.json): rjsf gets the real URI library, not the page's stand-in.
  const plugins = portal.plugins?.filter((plugin) => !(plugin && 'name' in plugin && plugin.name === RJSF_SAME_DOCUMENT_URI));
  return mergeConfig({ ...portal, plugins }, {
    root: STUDIO_SOURCE,
    base: './',
    plugins: [studioSnapshot(root, build)],
    build: {
      outDir: studioOutDir(build.webRoot),
      emptyOutDir: true,
      manifest: false,
      rollupOptions: { input: { index: resolve(STUDIO_SOURCE, 'index.html'), preview: resolve(STUDIO_SOURCE, 'preview.html') } },
    },
  });
}

export default defineConfig(() => studioViteConfig(portalBuildOf(process.env)));
