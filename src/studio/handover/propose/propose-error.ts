import { HandoverError } from '../handover-error.ts';

export type ProposeFailure = 'bad-token' | 'no-access' | 'not-found' | 'branch-exists' | 'base-moved' | 'refused' | 'unreachable';

/** A pull request that was not opened: why, for the studio to act on, and in words for its user. */
export class ProposeError extends HandoverError {
  override name = 'ProposeError';
  constructor(
    readonly reason: ProposeFailure,
    message: string,
  ) {
    super(message);
  }
}

export function branchExists(branch: string, repo: string): ProposeError {
  return new ProposeError(
    'branch-exists',
    `A branch named "${branch}" already exists in ${repo}, so nothing was changed. ` +
      'Choose another name, or ask a developer to merge or delete that branch first.',
  );
}

export function baseMoved(path: string | undefined): ProposeError {
  return new ProposeError(
    'base-moved',
    `${path ? `The project's ${path}` : 'A file of this change'} has changed since this studio was built, so nothing was proposed: the change would undo that newer work. ` +
      'Download the change instead and send it to a developer.',
  );
}
