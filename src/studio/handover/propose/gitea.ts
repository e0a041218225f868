import type { ChangedFile } from '../changed-files.ts';
import { gitBlobId } from '../git-blob.ts';
import { toBase64 } from './base64.ts';
import { branchIsFree, hostFailure, hostMessage, refPath, type HostApi, type Reply } from './host-api.ts';
import { baseMoved, branchExists } from './propose-error.ts';
import type { Proposal } from './proposal.ts';

const OPERATION = { added: 'create', modified: 'update', deleted: 'delete' } as const;

/**
 * Gitea's and Forgejo's contents API: one call makes the branch and its
 * commit of every file. Gitea checks each changed or deleted file's blob id
 * against the base branch, so a file that moved on since the studio was
 * built stops the change.
 */
export async function proposeOnGitea(api: HostApi, proposal: Proposal): Promise<{ url: string }> {
  const { base, branch, files } = proposal;
  if (!(await branchIsFree(api, `/branches/${refPath(branch)}`))) throw branchExists(branch, api.repo);
  const commit = await api.send('POST', '/contents', {
    branch: base,
    new_branch: branch,
    message: proposal.message,
    ...(proposal.author ? { author: proposal.author } : {}),
    dates: { author: proposal.date.toISOString(), committer: proposal.date.toISOString() },
    files: files.map(operation),
  });
  if (commit.status !== 201) throw contentsFailure(commit, proposal, api.repo);
  const pull = await api.ok<{ html_url: string }>('POST', '/pulls', { title: proposal.title, head: branch, base, body: proposal.body });
  return { url: pull.html_url };
}

function operation(file: ChangedFile) {
  return {
    operation: OPERATION[file.status],
    path: file.path,
    ...(file.status === 'deleted' ? {} : { content: toBase64(file.after) }),
    ...(file.status === 'added' ? {} : { sha: gitBlobId(file.before) }),
  };
}

/** Gitea names the cause only in its message: "branch already exists", "sha does not match", "file already exists". */
function contentsFailure(reply: Reply, proposal: Proposal, repo: string) {
  const said = hostMessage(reply);
  if (/branch.*already exists/i.test(said)) return branchExists(proposal.branch, repo);
  const stale = /sha does not match|file already exists|file does not exist/i.test(said);
  // Gitea names the path where a file exists or is missing, and the blob id given where one does not match.
  const file = proposal.files.find((f) => said.includes(f.path) || (f.status !== 'added' && said.includes(gitBlobId(f.before))));
  return stale ? baseMoved(file?.path) : hostFailure(reply, repo);
}
