import type { Finding } from '../project/findings';
import { useLayout } from '../project/layout';
import { useStudioT } from '../studio-texts';
import type { Reveal } from '../editors/reveal';

interface Props {
  findings: Finding[];
  checking: boolean;
  onOpen(path: string, at: Omit<Reveal, 'path' | 'seq'>): void;
}

/** `file:line:column /pointer: message`, as `npm run validate` prints a finding. */
export function findingText({ file, line, column, pointer, message }: Finding): string {
  return `${line === null ? file : `${file}:${line}:${column ?? 1}`}${pointer === '' ? '' : ` ${pointer}`}: ${message}`;
}

/** Files whose fields the studio can show (a brand file, a form, a uiSchema, a language). */
const HAS_FIELDS = new Set(['brand', 'form', 'uiSchema', 'sharedFields', 'language']);

/**
 * CI's findings over the project as edited, in its words and places: problems first (they stop the
 * hand-over), then warnings; the texts that fall back to Dutch listed on request. Each opens its
 * place in the JSON text, or its field.
 */
export function FindingsPanel({ findings, checking, onOpen }: Props) {
  const t = useStudioT();
  const problems = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning');
  const notes = findings.filter((f) => f.severity === 'note');
  return (
    <section className="studio-findings" aria-labelledby="findings-heading">
      <h2 id="findings-heading">{t('findings.heading')}</h2>
      <p role="status" className={problems.length > 0 ? 'studio-findings__verdict studio-findings__verdict--error' : 'studio-findings__verdict'}>
        {checking ? t('findings.checking') : t('findings.verdict', { problems: problems.length, warnings: warnings.length })}
      </p>
      {[...problems, ...warnings].length > 0 && (
        <ul className="studio-findings__list">
          {[...problems, ...warnings].map((finding, i) => (
            <FindingItem key={`${finding.severity}-${i}`} finding={finding} onOpen={onOpen} />
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <details className="studio-findings__notes">
          <summary>{t('findings.notes', { count: notes.length })}</summary>
          <ul className="studio-findings__list">
            {notes.map((finding, i) => (
              <FindingItem key={`note-${i}`} finding={finding} onOpen={onOpen} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function FindingItem({ finding, onOpen }: { finding: Finding; onOpen: Props['onOpen'] }) {
  const t = useStudioT();
  const layout = useLayout();
  const at = { line: finding.line ?? undefined, column: finding.column ?? undefined, pointer: finding.pointer };
  const text = findingText(finding);
  return (
    <li className={`studio-finding studio-finding--${finding.severity}`}>
      <span className="studio-finding__severity">{t(`findings.${finding.severity}`)}</span>{' '}
      <span className="studio-finding__text">{text}</span>
      <span className="studio-finding__actions">
        <button type="button" className="studio-link" onClick={() => onOpen(finding.file, { ...at, target: 'json' })}>
          {t('findings.showText')}
          <span className="visually-hidden">: {text}</span>
        </button>
        {HAS_FIELDS.has(layout.kind(finding.file)) && finding.pointer !== '' && (
          <button type="button" className="studio-link" onClick={() => onOpen(finding.file, { ...at, target: 'fields' })}>
            {t('findings.showField')}
            <span className="visually-hidden">: {text}</span>
          </button>
        )}
      </span>
    </li>
  );
}
