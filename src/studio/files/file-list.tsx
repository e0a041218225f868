import type { Finding } from '../project/findings';
import { useLayout, type FileKind } from '../project/layout';
import type { FileMap } from '../project/project-files';
import type { FileChange } from '../project/project-store';
import { useStudioT } from '../studio-texts';

/** The groups of the file list, in the order a brand owner needs them. */
const GROUPS: { kinds: FileKind[]; title: string }[] = [
  { kinds: ['brand'], title: 'files.brands' },
  { kinds: ['language'], title: 'files.languages' },
  { kinds: ['form', 'uiSchema', 'sharedFields'], title: 'files.forms' },
  { kinds: ['countries'], title: 'files.countries' },
  { kinds: ['asset'], title: 'files.pictures' },
  { kinds: ['rules'], title: 'files.rules' },
];

interface Props {
  files: FileMap;
  changes: FileChange[];
  findings: Finding[];
  openPath: string;
  onOpen(path: string): void;
  onNewBrand(): void;
  onNewLanguage(): void;
}

/** Every file a brand owner may open, grouped, each saying whether it is new, changed or has problems. */
export function FileList({ files, changes, findings, openPath, onOpen, onNewBrand, onNewLanguage }: Props) {
  const t = useStudioT();
  const layout = useLayout();
  const changed = new Map(changes.map((c) => [c.path, c.before === undefined ? 'new' : 'changed']));
  const removed = changes.filter((c) => c.after === undefined).map((c) => c.path);
  const problems = new Set(findings.filter((f) => f.severity === 'error').map((f) => f.file));
  const paths = [...files.keys()].sort();
  return (
    <nav className="studio-files" aria-label={t('files.label')}>
      <div className="studio-files__actions">
        <button type="button" className="studio-button studio-button--primary" onClick={onNewBrand}>
          {t('files.newBrand')}
        </button>
        <button type="button" className="studio-button" onClick={onNewLanguage}>
          {t('files.newLanguage')}
        </button>
      </div>
      {GROUPS.map(({ kinds, title }) => {
        const inGroup = paths.filter((path) => kinds.includes(layout.kind(path)));
        if (inGroup.length === 0) return null;
        return (
          <section key={title} aria-labelledby={`files-${title}`}>
            <h2 id={`files-${title}`}>{t(title)}</h2>
            <ul>
              {inGroup.map((path) => {
                const tags = [...(changed.has(path) ? [t(`files.${changed.get(path)}`)] : []), ...(problems.has(path) ? [t('files.hasProblems')] : [])];
                const tagsId = `tags-${path}`;
                return (
                  <li key={path} className="studio-files__item">
                    {/* Named by its path, as the editor is; what is new or wrong about it describes it. */}
                    <button type="button" className="studio-files__file" aria-current={path === openPath ? 'page' : undefined} aria-describedby={tags.length > 0 ? tagsId : undefined} onClick={() => onOpen(path)}>
                      <span className="studio-files__path">{path}</span>
                    </button>
                    {tags.length > 0 && (
                      <span id={tagsId} className="studio-files__tags">
                        {tags.map((tag) => (
                          <span key={tag} className={tag === t('files.hasProblems') ? 'studio-tag studio-tag--error' : 'studio-tag'}>
                            {tag}
                          </span>
                        ))}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
      {removed.length > 0 && (
        <section aria-labelledby="files-removed">
          <h2 id="files-removed">{t('files.removed')}</h2>
          <ul>
            {removed.map((path) => (
              <li key={path} className="studio-files__path">
                {path}
              </li>
            ))}
          </ul>
        </section>
      )}
    </nav>
  );
}
