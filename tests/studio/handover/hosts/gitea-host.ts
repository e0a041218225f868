import type { FastifyInstance } from 'fastify';
import type { BareRepo } from './bare-repo.ts';
import { openPull, startFakeHost, type FakeHost, type HostOptions } from './fake-host.ts';

interface FileOperation {
  operation: 'create' | 'update' | 'delete';
  path: string;
  content?: string;
  sha?: string;
}

interface ChangeFiles {
  branch: string;
  new_branch: string;
  message: string;
  author?: { name: string; email: string };
  dates?: { author: string };
  files: FileOperation[];
}

/** The Gitea/Forgejo endpoints proposeChange uses, with Gitea's checks and error words (routers/api/v1/repo/file.go). */
export function startGitea(repo: BareRepo, options: HostOptions): Promise<FakeHost> {
  return startFakeHost(repo, options, 'token', '/api/v1', (app, host, at) => routes(app, host, at));
}

function routes(app: FastifyInstance, host: FakeHost, at: string): void {
  const { repo } = host;
  app.get(at, async () => ({ default_branch: 'main' }));
  app.get<{ Params: { '*': string } }>(`${at}/branches/*`, async (request, reply) => {
    const sha = repo.refSha(`refs/heads/${request.params['*']}`);
    return sha ? { name: request.params['*'], commit: { id: sha } } : reply.code(404).send({ message: "The target couldn't be found." });
  });
  app.post<{ Body: ChangeFiles }>(`${at}/contents`, async (request, reply) => {
    const change = request.body;
    if (repo.refSha(`refs/heads/${change.new_branch}`)) return reply.code(422).send({ message: `branch already exists [name: ${change.new_branch}]` });
    const head = repo.refSha(`refs/heads/${change.branch}`);
    if (!head) return reply.code(404).send({ message: `branch does not exist [name: ${change.branch}]` });
    const files = repo.files(head);
    for (const file of change.files) {
      const refusal = apply(files, file, (content) => repo.writeBlob(Buffer.from(content, 'base64')));
      if (refusal) return reply.code(refusal.status).send({ message: refusal.message });
    }
    const author = { name: change.author?.name ?? 'Token owner', email: change.author?.email ?? 'owner@example.org', date: change.dates?.author ?? new Date().toISOString() };
    const commit = repo.writeCommit(repo.writeTree(files), [head], change.message, author);
    repo.createRef(`refs/heads/${change.new_branch}`, commit);
    return reply.code(201).send({ commit: { sha: commit } });
  });
  app.post<{ Body: { title: string; head: string; base: string; body: string } }>(`${at}/pulls`, async (request, reply) => {
    const { title, head, base, body } = request.body;
    return reply.code(201).send(openPull(host, { title, head, base, body }));
  });
}

/** One file operation on the tree, or Gitea's refusal of it. */
function apply(files: Map<string, string>, file: FileOperation, writeBlob: (content: string) => string): { status: number; message: string } | null {
  const current = files.get(file.path);
  if (file.operation === 'create') {
    if (current) return { status: 422, message: `repository file already exists [path: ${file.path}]` };
  } else if (!current) {
    return { status: 404, message: `repository file does not exist [path: ${file.path}]` };
  } else if (file.sha !== current) {
    return { status: 422, message: `sha does not match [given: ${file.sha}, expected: ${current}]` };
  }
  if (file.operation === 'delete') files.delete(file.path);
  else files.set(file.path, writeBlob(file.content ?? ''));
  return null;
}
