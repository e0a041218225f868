import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ProjectLayout } from './project/layout';
import { ProjectStore } from './project/project-store';
import { snapshotFiles, type Snapshot } from './project/project-files';
import { Studio } from './studio';
import { preferredLanguage, studioT } from './studio-texts';
import './studio.css';

const root = createRoot(document.getElementById('studio')!);

/** The project as the studio was built with it, beside its page (src/cli/vite/studio-project.ts). */
async function start(): Promise<void> {
  const response = await fetch('project.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`project.json answered ${response.status}`);
  const snapshot = (await response.json()) as Snapshot;
  const store = new ProjectStore(snapshotFiles(snapshot), snapshot.commit, new ProjectLayout(snapshot.layout));
  root.render(
    <StrictMode>
      <Studio store={store} />
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  const t = studioT(preferredLanguage());
  root.render(
    <main className="studio-failed">
      <h1>{t('studio.title')}</h1>
      <p role="alert">{t('studio.notLoaded', { reason: error instanceof Error ? error.message : String(error) })}</p>
    </main>,
  );
});
