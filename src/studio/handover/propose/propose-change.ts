import { someChangedFiles } from '../changed-files.ts';
import { commitMessage } from '../commit-message.ts';
import { describeChange } from '../describe-change.ts';
import { gitPerson } from '../person.ts';
import { HandoverError } from '../handover-error.ts';
import type { GitHost, ProposedChange } from '../types.ts';
import { proposeOnGitea } from './gitea.ts';
import { proposeOnGitHub } from './github.ts';
import { hostApi } from './host-api.ts';

/**
 * "Propose change": a new branch named after the brand, with one commit of
 * the change, and a pull request whose description is the validate report.
 * An existing branch is never touched. Errors are ProposeErrors in plain words.
 */
export async function proposeChange(
  host: GitHost,
  change: ProposedChange,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<{ url: string }> {
  checkBranchName(change.branch);
  const files = someChangedFiles(change.changes);
  const message = change.message ?? describeChange(change.changes);
  const { subject, body } = commitMessage(message.subject, message.body);
  const api = hostApi(host, fetchImpl);
  const base = host.baseBranch ?? (await api.ok<{ default_branch: string }>('GET', '')).default_branch;
  const proposal = {
    base,
    branch: change.branch,
    title: change.title,
    body: change.body,
    files,
    message: body === '' ? subject : `${subject}\n\n${body}`,
    author: change.author && gitPerson(change.author),
    date: change.date ?? new Date(),
  };
  return host.kind === 'github' ? proposeOnGitHub(api, proposal) : proposeOnGitea(api, proposal);
}

/** git check-ref-format's rules, kept to the few characters a brand's branch needs. */
function checkBranchName(branch: string): void {
  const parts = branch.split('/');
  const fine = parts.every((part) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(part) && !part.endsWith('.lock') && !part.endsWith('.')) && !branch.includes('..');
  if (!fine) {
    throw new HandoverError(`"${branch}" cannot be a branch name: use letters, digits, "-", "_" and "." with "/" between parts, like studio/pelgrim.`);
  }
}
