// Entry of the request writer thread when the server runs from source: worker
// threads do not inherit tsx's loader on Node 20, so it loads the TypeScript
// entry through tsx's API. The compiled server starts the built entry instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./request-writer-thread.ts', import.meta.url);
