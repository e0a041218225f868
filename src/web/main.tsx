import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';
import { FormSeedContext, readSeed } from './form/form-seed';
import 'virtual:brand-themes.css';
import './styles.css';

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

// Prerendered pages (dist/web/pages/**) arrive with the markup in place: hydrate it.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
