/**
 * `npm start`, compiled to dist/server/start.js and run by plain Node:
 * refuses brands and data that do not pass npm run validate (with its messages) and a
 * build that lacks a brand's pages, then serves the portal with the intake
 * server. In a source checkout, prepare-start.ts first rebuilds what is stale.
 */
import './supported-node.mjs';
import { fileURLToPath } from 'node:url';
import { main } from '../server/server';
import { unbuiltPages } from './built-pages';
import { brandsOrRefuse, refuse } from './start-checks';

// Two levels up from src/cli/start.ts and from dist/server/start.js alike.
const root = fileURLToPath(new URL('../../', import.meta.url));

await main((config) => {
  const brands = brandsOrRefuse(root, config);
  const missing = unbuiltPages(brands, config.webRoot);
  if (missing.length > 0) {
    refuse([`The build in ${config.webRoot} has no page for ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}, though the brand file exists. Run npm run build, then npm start.`]);
  }
});
