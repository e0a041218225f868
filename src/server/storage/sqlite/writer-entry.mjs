// Entry of the request writer thread when the server runs from source: under
// Vitest no loader is registered that a worker thread would inherit (only
// `node --import tsx` registers one), so it loads the TypeScript entry
// through tsx's API. The compiled server starts the built entry instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./writer-entry.ts', import.meta.url);
