import type { ChangedFile } from '../changed-files.ts';
import type { Person } from '../types.ts';

/** A checked proposal, as each host's steps take it. */
export interface Proposal {
  /** The branch the pull request merges into. */
  base: string;
  branch: string;
  title: string;
  body: string;
  files: ChangedFile[];
  /** The commit message, tidied as git am would record it. */
  message: string;
  author?: Person;
  date: Date;
}
