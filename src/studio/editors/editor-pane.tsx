import { useEffect, useState } from 'react';
import type { Finding } from '../project/findings';
import { useLayout } from '../project/layout';
import type { FileContent, FileMap } from '../project/project-files';
import { useStudioT } from '../studio-texts';
import { useKept } from '../use-kept';
import { FIELD_RULES, FieldsEditor, type FieldKind } from './fields-editor';
import { JsonEditor } from './json-editor';
import { LanguageTable } from './language-table';
import type { Reveal } from './reveal';

interface Props {
  path: string;
  files: FileMap;
  findings: readonly Finding[];
  reveal: Reveal | undefined;
  write(changes: Record<string, FileContent | undefined>): void;
}

type View = 'fields' | 'json';

/** The forms' files: a change to them is a new revision of the form. */
const FORM_KINDS = new Set(['form', 'uiSchema', 'sharedFields']);

/**
 * The open file, in two editors always in step: its fields (a form made from its rule file, or the
 * texts side by side) and its JSON text. A form's files are read-only until the brand owner has read
 * what changing a form means for requests already sent.
 */
export function EditorPane({ path, files, findings, reveal, write }: Props) {
  const t = useStudioT();
  const layout = useLayout();
  const kind = layout.kind(path);
  const hasFields = kind in FIELD_RULES || kind === 'language';
  const [chosen, setView] = useKept<View>('studio-view', 'fields');
  const view: View = hasFields ? chosen : 'json';
  // A finding asked to be shown in one of the editors: that editor comes up.
  useEffect(() => {
    if (reveal) setView(reveal.target);
  }, [reveal, setView]);
  const [formAccepted, setFormAccepted] = useState(false);
  const content = files.get(path);
  const own = findings.filter((f) => f.file === path);
  const readOnly = kind === 'rules' || (FORM_KINDS.has(kind) && !formAccepted);
  if (content === undefined) return <p className="studio-notice">{t('editor.none')}</p>;
  if (typeof content !== 'string' || kind === 'asset') return <PicturePane path={path} />;
  const setText = (text: string) => write({ [path]: text });
  return (
    <section className="editor-pane" aria-labelledby="editor-heading">
      <h2 id="editor-heading" className="editor-pane__path">
        {path}
      </h2>
      {kind === 'rules' && <p className="studio-notice">{t('editor.rulesReadOnly')}</p>}
      {FORM_KINDS.has(kind) && !formAccepted && (
        <div className="studio-notice studio-notice--warning" role="note">
          <p>{t('editor.formWarning')}</p>
          <button type="button" className="studio-button" onClick={() => setFormAccepted(true)}>
            {t('editor.formAccept')}
          </button>
        </div>
      )}
      {hasFields && (
        <div className="editor-pane__views" role="group" aria-label={t('editor.views')}>
          {(['fields', 'json'] as const).map((v) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)}>
              {t(`editor.${v}`)}
            </button>
          ))}
        </div>
      )}
      {(view === 'json' || !hasFields) && <p className="studio-field__hint">{t('editor.jsonHint')}</p>}
      {view === 'json' || !hasFields ? (
        <JsonEditor path={path} text={content} findings={own} readOnly={readOnly} reveal={reveal} onChange={setText} />
      ) : kind === 'language' ? (
        <LanguageTable code={layout.stem(path)} files={files} readOnly={readOnly} writeFiles={write} />
      ) : (
        <FieldsEditor path={path} kind={kind as FieldKind} text={content} files={files} findings={own} readOnly={readOnly} reveal={reveal} onChange={setText} writeFiles={write} />
      )}
    </section>
  );
}

/** A picture file: it is changed from its brand's fields (logo, favicon), where it is checked as validate does. */
function PicturePane({ path }: { path: string }) {
  const t = useStudioT();
  return (
    <section className="editor-pane" aria-labelledby="editor-heading">
      <h2 id="editor-heading" className="editor-pane__path">
        {path}
      </h2>
      <p>{t('editor.picture')}</p>
    </section>
  );
}
