import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Gives @rjsf/utils, and nothing else, the same-document stand-in for
 * fast-uri (src/web/form/same-document-uri.ts). Ajv keeps the real one: the
 * development server's pre-bundled dependencies load Ajv's compiler, which
 * parses URIs in full.
 */
/** The plugin's name: the studio's build leaves it out (vite.studio.config.ts). */
export const RJSF_SAME_DOCUMENT_URI = 'rjsf-same-document-uri';

export function rjsfSameDocumentUri(root: string): Plugin {
  const standIn = join(root, 'src/web/form/same-document-uri.ts');
  return {
    name: RJSF_SAME_DOCUMENT_URI,
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'fast-uri' && importer?.replace(/\\/g, '/').includes('/@rjsf/utils/') ? standIn : null;
    },
  };
}
