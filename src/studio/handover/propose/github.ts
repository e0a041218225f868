import type { ChangedFile } from '../changed-files.ts';
import { gitBlobId } from '../git-blob.ts';
import { toBase64 } from './base64.ts';
import { branchIsFree, hostFailure, hostMessage, refPath, type HostApi } from './host-api.ts';
import { baseMoved, branchExists, ProposeError } from './propose-error.ts';
import type { Proposal } from './proposal.ts';

interface TreeEntry {
  path: string;
  mode: '100644';
  type: 'blob';
  sha: string | null;
}

/**
 * GitHub's git-data API: the commit is built on the base branch's head from
 * blobs and a tree, and only then does a branch point at it, so a failure
 * on the way leaves no branch behind.
 */
export async function proposeOnGitHub(api: HostApi, proposal: Proposal): Promise<{ url: string }> {
  const { base, branch, files } = proposal;
  if (!(await branchIsFree(api, `/git/ref/heads/${refPath(branch)}`))) throw branchExists(branch, api.repo);
  const head = (await api.ok<{ object: { sha: string } }>('GET', `/git/ref/heads/${refPath(base)}`)).object.sha;
  const baseTree = (await api.ok<{ tree: { sha: string } }>('GET', `/git/commits/${head}`)).tree.sha;
  await checkUnchanged(api, baseTree, files);
  const tree: TreeEntry[] = [];
  for (const file of files) tree.push(await treeEntry(api, file));
  const newTree = (await api.ok<{ sha: string }>('POST', '/git/trees', { base_tree: baseTree, tree })).sha;
  const commit = await api.ok<{ sha: string }>('POST', '/git/commits', { message: proposal.message, tree: newTree, parents: [head], ...authorOf(proposal) });
  const ref = await api.send('POST', '/git/refs', { ref: `refs/heads/${branch}`, sha: commit.sha });
  // GitHub answers 422 "Reference already exists" when the branch came into being since the check above.
  if (ref.status === 422 && /already exists/i.test(hostMessage(ref))) throw branchExists(branch, api.repo);
  if (ref.status !== 201) throw hostFailure(ref, api.repo);
  const pull = await api.ok<{ html_url: string }>('POST', '/pulls', { title: proposal.title, head: branch, base, body: proposal.body });
  return { url: pull.html_url };
}

/** Each changed file must be in the base branch as the studio knew it: else the change would undo newer work. */
async function checkUnchanged(api: HostApi, treeSha: string, files: ChangedFile[]): Promise<void> {
  const listing = await api.ok<{ tree: { path: string; type: string; sha: string }[]; truncated: boolean }>('GET', `/git/trees/${treeSha}?recursive=1`);
  if (listing.truncated) throw new ProposeError('refused', `${api.repo} is too large for the studio to check its files: download the change instead.`);
  const blobs = new Map(listing.tree.filter((entry) => entry.type === 'blob').map((entry) => [entry.path, entry.sha]));
  for (const file of files) {
    const expected = file.status === 'added' ? undefined : gitBlobId(file.before);
    if (blobs.get(file.path) !== expected) throw baseMoved(file.path);
  }
}

async function treeEntry(api: HostApi, file: ChangedFile): Promise<TreeEntry> {
  if (file.status === 'deleted') return { path: file.path, mode: '100644', type: 'blob', sha: null };
  const blob = await api.ok<{ sha: string }>('POST', '/git/blobs', { content: toBase64(file.after), encoding: 'base64' });
  return { path: file.path, mode: '100644', type: 'blob', sha: blob.sha };
}

function authorOf(proposal: Proposal): { author?: { name: string; email: string; date: string } } {
  return proposal.author ? { author: { ...proposal.author, date: proposal.date.toISOString() } } : {};
}
