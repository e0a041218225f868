import { fileURLToPath } from 'node:url';
import type { PortalBuild } from '../../../vite.config';
import { SHIPPED_BRANDS_DIR, SPEC_BRANDS_DIR } from '../../support/brand-folders';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What the browser suites test: the spec's brands, built into a folder of their own. */
export const SPEC_BUILD: PortalBuild = { brandsDir: SPEC_BRANDS_DIR, webRoot: `${ROOT}dist/spec-web` };

/** The shipped brands as npm run build makes them (dist/web): only shipped-brands.spec.ts serves this build. */
export const SHIPPED_BUILD: PortalBuild = { brandsDir: SHIPPED_BRANDS_DIR, webRoot: `${ROOT}dist/web` };
