import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEB_ROOT = `${ROOT}dist/web`;
/** Written last by `npm run build` (the prerender step): its age is the build's age. */
export const BUILD_STAMP = `${WEB_ROOT}/pages/404.html`;
