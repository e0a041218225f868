import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { brandThemeCss } from './src/web/app/brand-theme-css.ts';

const brandsDir = fileURLToPath(new URL('./brands/', import.meta.url));

/**
 * `virtual:brand-themes.css`: each brand's theme colours as custom properties
 * on `.brand-page--<id>`, generated from brands/*.json. A stylesheet rather
 * than style attributes, so prerendered pages pass the CSP (style-src 'self').
 */
function brandThemes(): Plugin {
  const id = 'virtual:brand-themes.css';
  const resolved = `\0${id}`;
  return {
    name: 'repair-portal:brand-themes',
    resolveId: (source) => (source === id ? resolved : undefined),
    load(loadId) {
      if (loadId !== resolved) return undefined;
      const files = readdirSync(brandsDir).filter((f) => f.endsWith('.json')).sort();
      const brands = files.map((f) => {
        this.addWatchFile(brandsDir + f);
        return JSON.parse(readFileSync(brandsDir + f, 'utf8'));
      });
      return brandThemeCss(brands);
    },
  };
}

export default defineConfig({
  plugins: [react(), brandThemes()],
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
    // Read by the prerender step to preload each page's form-variant chunk.
    manifest: true,
    sourcemap: false,
  },
  ssr: {
    // Bundle the page's dependencies into the SSR build so the alias above applies there too.
    noExternal: true,
  },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
