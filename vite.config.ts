import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { brandCheckOverlay } from './src/cli/vite/brand-check-overlay.ts';
import { brandFilesForThePage, brandRoutes, brandThemes } from './src/cli/vite/brand-modules.ts';
import { pageTexts } from './src/cli/vite/page-texts.ts';
import { rjsfSameDocumentUri } from './src/cli/vite/same-document-uri.ts';

const root = fileURLToPath(new URL('./', import.meta.url));

export default defineConfig({
  plugins: [react(), brandThemes(root), brandRoutes(root), brandCheckOverlay(root), brandFilesForThePage(root), pageTexts(root), rjsfSameDocumentUri(root)],
  resolve: {
    alias: {
      // rjsf needs markdown only for opt-in markdown descriptions: see plain-markdown.tsx.
      'markdown-to-jsx/react': fileURLToPath(new URL('./src/web/app/plain-markdown.tsx', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Read by the prerender step to preload each page's form variant chunk.
    manifest: true,
    sourcemap: false,
  },
  ssr: {
    // Bundle the page's dependencies into the SSR build so the alias above applies there too.
    noExternal: true,
  },
});
