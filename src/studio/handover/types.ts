/**
 * One file of a change, at its path in the project. Content is text (written
 * as UTF-8) or exact bytes; `before` is what the studio was built with.
 */
export interface FileChange {
  path: string;
  /** Absent: the change adds the file. */
  before?: string | Uint8Array;
  /** Absent: the change deletes the file. */
  after?: string | Uint8Array;
}

export interface Person {
  name: string;
  email: string;
}

export interface ChangeMessage {
  subject: string;
  body: string;
  author: Person;
  date: Date;
}

export interface GitHost {
  kind: 'github' | 'gitea';
  /** The API root: `https://api.github.com`, or `https://git.example.org/api/v1` for Gitea and Forgejo. */
  apiBase: string;
  owner: string;
  repo: string;
  token: string;
  /** The branch the pull request asks to merge into; the repository's default branch when absent. */
  baseBranch?: string;
}

export interface ProposedChange {
  /** The new branch, named after the brand (`studio/pelgrim`); never overwritten. */
  branch: string;
  title: string;
  /** The pull request's description: the validate report. */
  body: string;
  changes: FileChange[];
  /** The commit's message; describeChange's when absent. */
  message?: Pick<ChangeMessage, 'subject' | 'body'>;
  /** Who wrote the change; the token's user when absent. */
  author?: Person;
  /** The commit's date; now when absent. */
  date?: Date;
}
