import { useCallback, useState, useSyncExternalStore } from 'react';
import { EditorPane } from './editors/editor-pane';
import { FileList } from './files/file-list';
import { FindingsPanel } from './files/findings-panel';
import { HandoverPanel } from './handover-panel/handover-panel';
import { NewBrandDialog } from './dialogs/new-brand-dialog';
import { NewLanguageDialog } from './dialogs/new-language-dialog';
import { PreviewPane } from './preview/preview-pane';
import type { FileContent } from './project/project-files';
import { LayoutContext } from './project/layout';
import type { ProjectStore } from './project/project-store';
import { useFindings } from './project/use-findings';
import { StudioLanguageContext, preferredLanguage, studioT, type StudioLanguage } from './studio-texts';
import { useKept } from './use-kept';
import type { Reveal } from './editors/reveal';

/** The studio: the project's files, the open one in two editors, CI's findings, the live page, the hand-over. */
export function Studio({ store }: { store: ProjectStore }) {
  const files = useSyncExternalStore(store.subscribe, () => store.files());
  const { layout } = store;
  const firstBrand = layout.brandIds(files)[0];
  const first = firstBrand ? layout.brandFile(firstBrand) : '';
  const [language, setLanguage] = useKept<StudioLanguage>('studio-language', preferredLanguage());
  const [openPath, setOpenPath] = useKept('studio-open-file', first);
  const [reveal, setReveal] = useState<Reveal | undefined>();
  const [dialog, setDialog] = useState<'brand' | 'language' | undefined>();
  const { findings, checking } = useFindings(files, layout);
  const t = studioT(language);
  const write = useCallback((changes: Record<string, FileContent | undefined>) => store.write(changes), [store]);
  const open = useCallback((path: string, at?: Omit<Reveal, 'path' | 'seq'>) => {
    setOpenPath(path);
    setReveal(at ? { ...at, path, seq: Date.now() } : undefined);
  }, [setOpenPath]);
  const changes = store.changes();
  const shown = files.has(openPath) ? openPath : first;

  return (
    <StudioLanguageContext.Provider value={language}>
      <LayoutContext.Provider value={layout}>
      <a className="skip-link" href="#studio-editor">
        {t('studio.skipToEditor')}
      </a>
      <header className="studio-header">
        <h1>{t('studio.title')}</h1>
        <p className="studio-header__intro">{t('studio.intro')}</p>
        <LanguageSwitch language={language} onChange={setLanguage} />
      </header>
      {store.movedFrom && <p className="studio-notice">{t('studio.movedOn')}</p>}
      {store.notKept && (
        <p className="studio-notice studio-notice--error" role="alert">
          {t('studio.notKept')}
        </p>
      )}
      <div className="studio-layout">
        <FileList files={files} changes={changes} findings={findings} openPath={shown} onOpen={open} onNewBrand={() => setDialog('brand')} onNewLanguage={() => setDialog('language')} />
        <main className="studio-main" id="studio-editor" tabIndex={-1}>
          <EditorPane key={shown} path={shown} files={files} findings={findings} reveal={reveal?.path === shown ? reveal : undefined} write={write} />
          <FindingsPanel findings={findings} checking={checking} onOpen={open} />
          <HandoverPanel store={store} changes={changes} findings={findings} checking={checking} />
        </main>
        <PreviewPane files={files} openPath={shown} />
      </div>
      {dialog === 'brand' && <NewBrandDialog files={files} onClose={() => setDialog(undefined)} onCreate={(created, brandFile) => (write(created), open(brandFile))} />}
      {dialog === 'language' && <NewLanguageDialog files={files} onClose={() => setDialog(undefined)} onCreate={(created, file) => (write(created), open(file))} />}
      </LayoutContext.Provider>
    </StudioLanguageContext.Provider>
  );
}

function LanguageSwitch({ language, onChange }: { language: StudioLanguage; onChange(language: StudioLanguage): void }) {
  const t = studioT(language);
  return (
    <div className="studio-header__languages" role="group" aria-label={t('studio.interfaceLanguage')}>
      {(['en', 'nl'] as const).map((code) => (
        <button key={code} type="button" lang={code} aria-pressed={code === language} onClick={() => onChange(code)}>
          {studioT(code)('studio.languageName')}
        </button>
      ))}
    </div>
  );
}
