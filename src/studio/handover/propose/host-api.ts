import type { GitHost } from '../types.ts';
import { ProposeError } from './propose-error.ts';

export interface Reply {
  status: number;
  data: unknown;
}

export interface HostApi {
  /** The repository's name as people know it: `owner/repo`. */
  repo: string;
  /** A call under `/repos/{owner}/{repo}`, whatever its answer. */
  send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply>;
  /** The same, and a plain-words ProposeError for any answer but 2xx. */
  ok<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
}

/** The repository's REST API on GitHub or Gitea/Forgejo, which differ here only in how a token is sent. */
export function hostApi(host: GitHost, fetchImpl: typeof fetch): HostApi {
  const root = `${host.apiBase.replace(/\/+$/, '')}/repos/${encodeURIComponent(host.owner)}/${encodeURIComponent(host.repo)}`;
  const headers: Record<string, string> =
    host.kind === 'github'
      ? { Accept: 'application/vnd.github+json', Authorization: `Bearer ${host.token}`, 'X-GitHub-Api-Version': '2022-11-28' }
      : { Accept: 'application/json', Authorization: `token ${host.token}` };
  const api: HostApi = {
    repo: `${host.owner}/${host.repo}`,
    async send(method, path, body) {
      let response: Response;
      try {
        const init = body === undefined ? { method, headers } : { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
        response = await fetchImpl(root + path, init);
      } catch {
        // A browser reports a refused connection and a CORS refusal alike, and says no more.
        throw new ProposeError('unreachable', `The Git host at ${host.apiBase} could not be reached. Check its address and your connection.`);
      }
      return { status: response.status, data: await replyData(response) };
    },
    async ok<T>(method: 'GET' | 'POST', path: string, body?: unknown) {
      const reply = await api.send(method, path, body);
      if (reply.status < 200 || reply.status > 299) throw hostFailure(reply, api.repo);
      return reply.data as T;
    },
  };
  return api;
}

async function replyData(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** What the host said, for the end of a sentence. */
export function hostMessage(reply: Reply): string {
  const message = (reply.data as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : `status ${reply.status}`;
}

export function hostFailure(reply: Reply, repo: string): ProposeError {
  const said = ` (The Git host said: ${hostMessage(reply)}.)`;
  switch (reply.status) {
    case 401:
      return new ProposeError('bad-token', 'The Git host did not accept the token: it may be mistyped, expired or revoked. Make a new token and try again.');
    case 403:
      return new ProposeError('no-access', `The token was accepted, but it may not change ${repo}: it needs the right to push branches and open pull requests.${said}`);
    case 404:
      return new ProposeError('not-found', `${repo} was not found on the Git host, or the token may not see it. Check the owner, the repository and the token's access.${said}`);
    default:
      return new ProposeError('refused', `The Git host refused the change.${said}`);
  }
}

/** Whether the branch is free to make: the host answers 404 for it; any answer but 200 or 404 is a failure. */
export async function branchIsFree(api: HostApi, path: string): Promise<boolean> {
  const reply = await api.send('GET', path);
  if (reply.status === 404) return true;
  if (reply.status === 200) return false;
  throw hostFailure(reply, api.repo);
}

/** A branch name in a URL path: each part encoded, the slashes kept, as both hosts route it. */
export function refPath(branch: string): string {
  return branch.split('/').map(encodeURIComponent).join('/');
}
