import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { dataCheckOverlay } from './src/cli/vite/data-check-overlay.ts';
import { brandFilesForThePage, brandRoutes, brandThemes } from './src/cli/vite/brand-modules.ts';
import { portalDataModules } from './src/cli/vite/portal-data-modules.ts';
import { rjsfSameDocumentUri } from './src/cli/vite/same-document-uri.ts';
import { studioInDev } from './src/cli/vite/studio-project.ts';

const root = fileURLToPath(new URL('./', import.meta.url));

export interface PortalBuild {
  /** The folder of brand files (<id>.json, assets/) the pages are made from. */
  brandsDir: string;
  /** The folder of forms, languages and countries (forms/, i18n/, countries.json) the pages are made from. */
  schemasDir: string;
  /** Where the build goes (the SSR build into its ssr/ folder). */
  webRoot: string;
}

/**
 * BRANDS_DIR, SCHEMAS_DIR and WEB_ROOT from the environment, as the server
 * reads them (relative to the project folder): `npm run build` makes the pages
 * of the brands and forms the server will serve, where it will serve them
 * from. (npm start hands .env's on to the build it runs; prerender.ts and
 * compress-assets.ts read WEB_ROOT too.)
 */
export const portalBuildOf = (env: NodeJS.ProcessEnv): PortalBuild => ({
  brandsDir: resolve(root, env.BRANDS_DIR?.trim() || 'brands'),
  schemasDir: resolve(root, env.SCHEMAS_DIR?.trim() || 'schemas'),
  webRoot: resolve(root, env.WEB_ROOT?.trim() || 'dist/web'),
});

export function portalViteConfig({ brandsDir, schemasDir, webRoot }: PortalBuild, isSsrBuild = false): UserConfig {
  const folders = { brandsDir, schemasDir };
  return {
    plugins: [
      react(),
      brandThemes(root, folders),
      brandRoutes(root, folders),
      dataCheckOverlay(root, folders),
      brandFilesForThePage(brandsDir),
      portalDataModules(root, folders),
      rjsfSameDocumentUri(root),
      studioInDev(root, folders),
    ],
    resolve: {
      alias: {
        // The page's import.meta.glob of brand files and their assets (src/web/app/brands.ts).
        '@brands': brandsDir,
        // rjsf needs markdown only for opt-in markdown descriptions: see plain-markdown.tsx.
        'markdown-to-jsx/react': join(root, 'src/web/app/plain-markdown.tsx'),
      },
    },
    // `npm run dev` may preview brands kept outside the project folder.
    server: { fs: { allow: [root, brandsDir] } },
    build: {
      outDir: isSsrBuild ? join(webRoot, 'ssr') : webRoot,
      emptyOutDir: true,
      assetsInlineLimit: 0,
      // Read by the prerender step to preload each page's form chunk.
      manifest: true,
      sourcemap: false,
    },
    ssr: {
      // Bundle the page's dependencies into the SSR build so the alias above applies there too.
      noExternal: true,
    },
  };
}

export default defineConfig(({ isSsrBuild }) => portalViteConfig(portalBuildOf(process.env), isSsrBuild));
