import { useEffect, useState } from 'react';
import { describeChange, formatPatch, zipChange } from '../handover';
import type { Finding } from '../project/findings';
import type { FileChange, ProjectStore } from '../project/project-store';
import { useStudioT } from '../studio-texts';
import { useKept } from '../use-kept';
import { ProposeChange } from './propose-change';

interface Props {
  store: ProjectStore;
  changes: FileChange[];
  findings: Finding[];
  checking: boolean;
}

/** A file offered for download, kept as a link so it can be saved again. */
interface Download {
  name: string;
  url: string;
}

/** "Add brand Pelgrim" → add-brand-pelgrim, as git format-patch names its files. */
const slug = (subject: string) => subject.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 52) || 'change';

/**
 * The change handed over, without a developer: a patch `git am` applies with one commit, the same
 * files as a zip, or a pull request. Never while CI would stop it: a problem that stands stops every
 * hand-over (warnings are listed, and do not).
 */
export function HandoverPanel({ store, changes, findings, checking }: Props) {
  const t = useStudioT();
  const [author, setAuthor] = useKept('studio-author', { name: '', email: '' });
  const [story, setStory] = useState('');
  const [download, setDownload] = useState<Download | undefined>();
  useEffect(() => () => (download ? URL.revokeObjectURL(download.url) : undefined), [download]);
  const problems = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const described = changes.length > 0 ? describeChange(changes) : { subject: '', body: '' };
  const message = { subject: described.subject, body: [story.trim(), described.body].filter(Boolean).join('\n\n') };
  const signed = author.name.trim() !== '' && /^[^\s@]+@[^\s@]+$/.test(author.email.trim());
  const blocked = changes.length === 0 ? t('handover.nothing') : checking ? t('handover.checking') : problems > 0 ? t('handover.problems', { count: problems }) : undefined;

  const [refusal, setRefusal] = useState<string | undefined>();
  const offer = (name: string, make: () => BlobPart, type: string) => {
    let content: BlobPart;
    try {
      content = make();
    } catch (error) {
      // A message git am would read otherwise (a first line starting with "["): said, nothing downloaded.
      return setRefusal(error instanceof Error ? error.message : String(error));
    }
    setRefusal(undefined);
    const url = URL.createObjectURL(new Blob([content], { type }));
    setDownload({ name, url });
    // The browser saves it now; the link stays for a second save.
    Object.assign(document.createElement('a'), { href: url, download: name }).click();
  };
  const patch = () =>
    offer(`0001-${slug(message.subject)}.patch`, () => formatPatch(changes, { ...message, author: { name: author.name.trim(), email: author.email.trim() }, date: new Date() }), 'text/x-patch');
  const zip = () => offer(`${slug(message.subject)}.zip`, () => zipChange(changes, { note: `${message.subject}\n\n${message.body}\n`, date: new Date() }) as BlobPart, 'application/zip');

  return (
    <section className="handover" aria-labelledby="handover-heading">
      <h2 id="handover-heading">{t('handover.heading')}</h2>
      <ChangeList changes={changes} />
      <p role="status" className={blocked && problems > 0 ? 'handover__blocked handover__blocked--error' : 'handover__blocked'}>
        {blocked ?? (warnings > 0 ? t('handover.warnings', { count: warnings }) : t('handover.ready'))}
      </p>
      <div className="handover__author">
        <label htmlFor="handover-name">{t('handover.name')}</label>
        <input id="handover-name" type="text" autoComplete="name" value={author.name} onChange={(e) => setAuthor({ ...author, name: e.target.value })} />
        <label htmlFor="handover-email">{t('handover.email')}</label>
        <input id="handover-email" type="email" autoComplete="email" value={author.email} onChange={(e) => setAuthor({ ...author, email: e.target.value })} />
        <label htmlFor="handover-story">{t('handover.story')}</label>
        <textarea id="handover-story" rows={3} value={story} onChange={(e) => setStory(e.target.value)} />
      </div>
      {!signed && !blocked && <p className="studio-field__hint">{t('handover.whoFirst')}</p>}
      <div className="handover__actions">
        <button type="button" className="studio-button studio-button--primary" disabled={Boolean(blocked) || !signed} onClick={patch}>
          {t('handover.patch')}
        </button>
        <button type="button" className="studio-button" disabled={Boolean(blocked)} onClick={zip}>
          {t('handover.zip')}
        </button>
      </div>
      {refusal && (
        <p className="studio-field__errors" role="alert">
          {refusal}
        </p>
      )}
      {download && (
        <p className="handover__download" role="status">
          {t('handover.downloaded')}{' '}
          <a href={download.url} download={download.name}>
            {download.name}
          </a>
        </p>
      )}
      <ProposeChange store={store} changes={changes} findings={findings} message={message} author={author} blocked={blocked} />
      <DiscardChanges store={store} disabled={changes.length === 0} />
    </section>
  );
}

/** The files the change touches, each marked new, changed or removed. */
function ChangeList({ changes }: { changes: readonly FileChange[] }) {
  const t = useStudioT();
  if (changes.length === 0) return null;
  return (
    <ul className="handover__changes">
      {changes.map((change) => (
        <li key={change.path}>
          <span className="studio-tag">{t(change.before === undefined ? 'files.new' : change.after === undefined ? 'files.removedOne' : 'files.changed')}</span> {change.path}
        </li>
      ))}
    </ul>
  );
}

function DiscardChanges({ store, disabled }: { store: ProjectStore; disabled: boolean }) {
  const t = useStudioT();
  return (
    <button type="button" className="studio-button studio-button--quiet" disabled={disabled} onClick={() => window.confirm(t('handover.discardConfirm')) && store.discard()}>
      {t('handover.discard')}
    </button>
  );
}
