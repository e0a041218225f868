import { useState } from 'react';
import { proposeChange, type GitHost } from '../handover';
import { findingText } from '../files/findings-panel';
import type { Finding } from '../project/findings';
import type { ProjectLayout } from '../project/layout';
import type { FileChange, ProjectStore } from '../project/project-store';
import { useStudioT } from '../studio-texts';
import { useKept } from '../use-kept';

interface Props {
  store: ProjectStore;
  changes: FileChange[];
  findings: Finding[];
  message: { subject: string; body: string };
  author: { name: string; email: string };
  blocked: string | undefined;
}

/** The branch a change is proposed on: after the brand it is about (the first new or changed brand file). */
function branchOf(changes: FileChange[], layout: ProjectLayout): string {
  const brand = layout.brandIds(new Map(changes.filter((c) => c.after !== undefined).map((c) => [c.path, ''])))[0];
  return `studio/${brand ?? 'change'}`;
}

/** What CI would say of the change, for the pull request's description: its warnings (problems stop the proposal). */
function reportOf(findings: Finding[], t: ReturnType<typeof useStudioT>): string {
  const warnings = findings.filter((f) => f.severity === 'warning');
  return [`### ${t('propose.report')}`, '', warnings.length === 0 ? t('propose.noFindings') : warnings.map((f) => `- ${findingText(f)}`).join('\n')].join('\n');
}

/**
 * For a brand owner with a token for the project's Git host (GitHub, or Gitea/Forgejo): the change as a
 * pull request, on a branch named after the brand, with CI's report in its description. The token is
 * used for this one request and never kept.
 */
export function ProposeChange({ store, changes, findings, message, author, blocked }: Props) {
  const t = useStudioT();
  const [host, setHost] = useKept<Omit<GitHost, 'token'>>('studio-git-host', { kind: 'github', apiBase: 'https://api.github.com', owner: '', repo: '', baseBranch: 'main' });
  const [token, setToken] = useState('');
  const [state, setState] = useState<{ busy?: boolean; url?: string; error?: string }>({});
  const propose = async () => {
    setState({ busy: true });
    try {
      const signed = author.name.trim() && author.email.trim() ? { author: { name: author.name.trim(), email: author.email.trim() } } : {};
      const { url } = await proposeChange({ ...host, token }, { branch: branchOf(changes, store.layout), title: message.subject, body: `${message.body}\n\n${reportOf(findings, t)}`, changes, message, ...signed });
      setState({ url });
    } catch (error) {
      setState({ error: error instanceof Error ? error.message : String(error) });
    }
  };
  const field = (key: 'apiBase' | 'owner' | 'repo' | 'baseBranch', label: string) => (
    <>
      <label htmlFor={`propose-${key}`}>{label}</label>
      <input id={`propose-${key}`} type="text" value={host[key] ?? ''} onChange={(e) => setHost({ ...host, [key]: e.target.value })} spellCheck={false} />
    </>
  );
  return (
    <details className="propose">
      <summary>{t('propose.summary')}</summary>
      <p>{t('propose.intro')}</p>
      <fieldset>
        <legend>{t('propose.kind')}</legend>
        {(['github', 'gitea'] as const).map((kind) => (
          <label key={kind}>
            <input type="radio" name="propose-kind" checked={host.kind === kind} onChange={() => setHost({ ...host, kind })} /> {t(`propose.${kind}`)}
          </label>
        ))}
      </fieldset>
      {field('apiBase', t('propose.apiBase'))}
      {field('owner', t('propose.owner'))}
      {field('repo', t('propose.repo'))}
      {field('baseBranch', t('propose.baseBranch'))}
      <label htmlFor="propose-token">{t('propose.token')}</label>
      <input id="propose-token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
      <button type="button" className="studio-button" disabled={Boolean(blocked) || state.busy || token === '' || host.owner === '' || host.repo === ''} onClick={() => void propose()}>
        {t('propose.open', { branch: branchOf(changes, store.layout) })}
      </button>
      <p role="status">
        {state.busy && t('propose.busy')}
        {state.url && (
          <>
            {t('propose.opened')} <a href={state.url}>{state.url}</a>
          </>
        )}
      </p>
      {state.error && (
        <p className="studio-field__errors" role="alert">
          {state.error}
        </p>
      )}
    </details>
  );
}
