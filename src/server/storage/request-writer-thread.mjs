// Entry of the request writer thread. Worker threads do not inherit tsx's
// loader on Node 20, so the TypeScript module is loaded through tsx's API.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { serveRequestWriter } = await tsImport('./request-writer.ts', import.meta.url);
serveRequestWriter(workerData);
