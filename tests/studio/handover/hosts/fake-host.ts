import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { BareRepo } from './bare-repo.ts';

export interface PullRequest {
  number: number;
  title: string;
  head: string;
  base: string;
  body: string;
}

/** A local stand-in for a Git host's REST API over a real bare repository. */
export interface FakeHost {
  apiBase: string;
  repo: BareRepo;
  pulls: PullRequest[];
  /** `METHOD /path` of every request, to show what a refused proposal left alone. */
  requests: string[];
  close(): Promise<void>;
}

export interface HostOptions {
  owner: string;
  name: string;
  /** A token that may write; `readOnlyToken` may only read. */
  token: string;
  readOnlyToken: string;
}

type Routes = (app: FastifyInstance, host: FakeHost, prefix: string) => void;

/**
 * Fastify on 127.0.0.1 and a random port. Checks the token as `scheme`
 * (GitHub: Bearer, Gitea: token) and the repository's name, as real hosts
 * do, before the host's own routes answer.
 */
export async function startFakeHost(repo: BareRepo, options: HostOptions, scheme: string, apiPath: string, routes: Routes): Promise<FakeHost> {
  const app = Fastify({ bodyLimit: 20 * 1024 * 1024 });
  const host: FakeHost = { apiBase: '', repo, pulls: [], requests: [], close: () => app.close() };
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    host.requests.push(`${request.method} ${request.url}`);
    const token = request.headers.authorization?.replace(new RegExp(`^${scheme} `), '');
    if (token !== options.token && token !== options.readOnlyToken) return reply.code(401).send({ message: 'Bad credentials' });
    if (request.method !== 'GET' && token === options.readOnlyToken) return reply.code(403).send({ message: 'Resource not accessible by personal access token' });
    if (!request.url.startsWith(`${apiPath}/repos/${options.owner}/${options.name}`)) return reply.code(404).send({ message: 'Not Found' });
  });
  routes(app, host, `${apiPath}/repos/:owner/:repo`);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  host.apiBase = `http://127.0.0.1:${port}${apiPath}`;
  return host;
}

export function openPull(host: FakeHost, pull: Omit<PullRequest, 'number'>): { number: number; html_url: string } {
  const number = host.pulls.push({ number: host.pulls.length + 1, ...pull });
  return { number, html_url: `https://git.example.org/pulls/${number}` };
}
