import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { brandPaths } from '../core/brands';
import type { Brand } from '../core/types';

/**
 * Brand pages (/<id>/<locale>/<country>) the build in webRoot lacks: served,
 * they would fall back to the bare page, which tells a visitor of a real
 * brand that it does not exist.
 */
export function unbuiltPages(brands: readonly Brand[], webRoot: string): string[] {
  return brandPaths(brands).filter((path) => !existsSync(join(webRoot, 'pages', `${path.slice(1)}.html`)));
}
