import { fileURLToPath } from 'node:url';
import { buildStamp } from '../../../src/cli/build-freshness';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEB_ROOT = `${ROOT}dist/web`;
export const BUILD_STAMP = buildStamp(WEB_ROOT);
