// A real bare repository, changed only with git's plumbing, as a Git host keeps one.
import { git, gitBytes } from '../support/git.ts';

const NO_COMMIT = '0'.repeat(40);

export interface Author {
  name: string;
  email: string;
  date: string;
}

export class BareRepo {
  constructor(readonly dir: string) {}

  /** A bare repository whose `main` holds `files` in one commit. */
  static create(dir: string, files: Record<string, string | Uint8Array>): BareRepo {
    git(dir, ['init', '-q', '--bare', '-b', 'main']);
    const repo = new BareRepo(dir);
    const blobs = new Map(Object.entries(files).map(([path, content]) => [path, repo.writeBlob(content)]));
    const commit = repo.writeCommit(repo.writeTree(blobs), [], 'The project as the studio got it', { name: 'Maintainer', email: 'm@example.org', date: '2026-01-01T00:00:00Z' });
    repo.createRef('refs/heads/main', commit);
    return repo;
  }

  writeBlob(content: string | Uint8Array): string {
    return git(this.dir, ['hash-object', '-w', '--stdin'], content).trim();
  }

  /** A tree of nested folders from a flat map of paths to blob ids, written with git mktree a folder at a time. */
  writeTree(blobs: Map<string, string>): string {
    const here = new Map<string, string>();
    const below = new Map<string, Map<string, string>>();
    for (const [path, sha] of blobs) {
      const [head, ...rest] = path.split('/');
      if (rest.length === 0) here.set(head, `100644 blob ${sha}\t${head}`);
      else below.set(head, (below.get(head) ?? new Map()).set(rest.join('/'), sha));
    }
    for (const [name, inner] of below) here.set(name, `040000 tree ${this.writeTree(inner)}\t${name}`);
    return git(this.dir, ['mktree'], [...here.values()].map((line) => `${line}\n`).join('')).trim();
  }

  writeCommit(tree: string, parents: string[], message: string, author: Author): string {
    const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-m', message];
    const who = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_AUTHOR_DATE: author.date };
    return git(this.dir, args, undefined, { ...who, GIT_COMMITTER_NAME: 'Git host', GIT_COMMITTER_EMAIL: 'host@example.org' }).trim();
  }

  /** Refuses to move an existing ref: update-ref with the all-zero old value. */
  createRef(ref: string, sha: string): void {
    git(this.dir, ['update-ref', ref, sha, NO_COMMIT]);
  }

  refSha(ref: string): string | null {
    try {
      return git(this.dir, ['rev-parse', '--verify', '-q', ref]).trim();
    } catch {
      return null;
    }
  }

  /** Every file of a tree or commit, as path → blob id. */
  files(treeish: string): Map<string, string> {
    const lines = git(this.dir, ['ls-tree', '-r', treeish]).split('\n').filter(Boolean);
    return new Map(lines.map((line) => [line.split('\t')[1], line.split(' ')[2].split('\t')[0]]));
  }

  treeOf(commit: string): string {
    return git(this.dir, ['rev-parse', `${commit}^{tree}`]).trim();
  }

  blob(sha: string): Uint8Array {
    return new Uint8Array(gitBytes(this.dir, ['cat-file', 'blob', sha]));
  }

  refs(): string {
    return git(this.dir, ['for-each-ref', '--format=%(refname) %(objectname)']);
  }
}
