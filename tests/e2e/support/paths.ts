import { fileURLToPath } from 'node:url';
import type { PortalBuild } from '../../../vite.config';
import { SHIPPED_BRANDS_DIR, SHIPPED_SCHEMAS_DIR, SPEC_BRANDS_DIR, SPEC_SCHEMAS_DIR } from '../../support/data-folders';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What the browser suites test: the spec's brands, forms, languages and countries, built into a folder of their own. */
export const SPEC_BUILD: PortalBuild = { brandsDir: SPEC_BRANDS_DIR, schemasDir: SPEC_SCHEMAS_DIR, webRoot: `${ROOT}dist/spec-web` };

/** The shipped data as npm run build makes it (dist/web): only the shipped-data checks (shipped-brands.spec.ts) serve this build. */
export const SHIPPED_BUILD: PortalBuild = { brandsDir: SHIPPED_BRANDS_DIR, schemasDir: SHIPPED_SCHEMAS_DIR, webRoot: `${ROOT}dist/web` };
