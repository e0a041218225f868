import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app';
import { FormSeedContext, readSeed } from './form/form-seed';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <FormSeedContext.Provider value={readSeed(document)}>
        <App />
      </FormSeedContext.Provider>
    </BrowserRouter>
  </StrictMode>
);

// Prerendered pages (dist/web/pages/**) arrive with the markup in place: hydrate it, as a
// transition, so React yields to the browser every few milliseconds instead of holding a
// slow phone's main thread for the whole form (a press meanwhile is replayed once hydrated).
if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
