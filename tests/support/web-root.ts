import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHELL_HTML =
  '<!doctype html><html lang="nl"><head><meta name="portal:api-base" content="" />' +
  '<meta name="portal:address-lookup-url" content="" /><title>Service</title></head><body><div id="root"></div></body></html>';

/** A tiny stand-in for dist/web, so server tests need no Vite build. */
export function makeWebRoot(dir: string, extra: Record<string, string> = {}): string {
  const files = { 'index.html': SHELL_HTML, 'assets/app-abc123.js': 'export {};\n', ...extra };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}
