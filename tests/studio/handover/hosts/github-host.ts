import type { FastifyInstance } from 'fastify';
import type { BareRepo } from './bare-repo.ts';
import { openPull, startFakeHost, type FakeHost, type HostOptions } from './fake-host.ts';

interface TreeItem {
  path: string;
  sha: string | null;
}

/** The GitHub REST endpoints proposeChange uses (git data, pulls), answering as GitHub does. */
export function startGitHub(repo: BareRepo, options: HostOptions): Promise<FakeHost> {
  return startFakeHost(repo, options, 'Bearer', '', (app, host, at) => routes(app, host, at));
}

function routes(app: FastifyInstance, host: FakeHost, at: string): void {
  const { repo } = host;
  app.get(at, async () => ({ default_branch: 'main' }));
  app.get<{ Params: { '*': string } }>(`${at}/git/ref/heads/*`, async (request, reply) => {
    const sha = repo.refSha(`refs/heads/${request.params['*']}`);
    return sha ? { ref: `refs/heads/${request.params['*']}`, object: { type: 'commit', sha } } : reply.code(404).send({ message: 'Not Found' });
  });
  app.get<{ Params: { sha: string } }>(`${at}/git/commits/:sha`, async (request) => ({ sha: request.params.sha, tree: { sha: repo.treeOf(request.params.sha) } }));
  app.get<{ Params: { sha: string } }>(`${at}/git/trees/:sha`, async (request) => ({
    sha: request.params.sha,
    tree: [...repo.files(request.params.sha)].map(([path, sha]) => ({ path, mode: '100644', type: 'blob', sha })),
    truncated: false,
  }));
  app.post<{ Body: { content: string; encoding: string } }>(`${at}/git/blobs`, async (request, reply) => {
    const { content, encoding } = request.body;
    return reply.code(201).send({ sha: repo.writeBlob(encoding === 'base64' ? Buffer.from(content, 'base64') : content) });
  });
  app.post<{ Body: { base_tree: string; tree: TreeItem[] } }>(`${at}/git/trees`, async (request, reply) => {
    const files = repo.files(request.body.base_tree);
    for (const item of request.body.tree) {
      if (item.sha === null) files.delete(item.path);
      else files.set(item.path, item.sha);
    }
    return reply.code(201).send({ sha: repo.writeTree(files) });
  });
  app.post<{ Body: { message: string; tree: string; parents: string[]; author?: { name: string; email: string; date: string } } }>(`${at}/git/commits`, async (request, reply) => {
    const { message, tree, parents, author } = request.body;
    const sha = repo.writeCommit(tree, parents, message, author ?? { name: 'Token owner', email: 'owner@example.org', date: new Date().toISOString() });
    return reply.code(201).send({ sha });
  });
  app.post<{ Body: { ref: string; sha: string } }>(`${at}/git/refs`, async (request, reply) => {
    if (repo.refSha(request.body.ref)) return reply.code(422).send({ message: 'Reference already exists' });
    repo.createRef(request.body.ref, request.body.sha);
    return reply.code(201).send({ ref: request.body.ref, object: { type: 'commit', sha: request.body.sha } });
  });
  app.post<{ Body: { title: string; head: string; base: string; body: string } }>(`${at}/pulls`, async (request, reply) => {
    const { title, head, base, body } = request.body;
    return reply.code(201).send(openPull(host, { title, head, base, body }));
  });
}
