// The studio's hand-over of a change, for the browser: a patch for `git am`,
// a zip of the files, and, where a token allows, a pull request.
export type { ChangeMessage, FileChange, GitHost, Person, ProposedChange } from './types.ts';
export { HandoverError } from './handover-error.ts';
export { formatPatch } from './format-patch.ts';
export { zipChange, ZIP_NOTE, type ZipChangeOptions } from './zip-change.ts';
export { describeChange } from './describe-change.ts';
export { proposeChange } from './propose/propose-change.ts';
export { ProposeError, type ProposeFailure } from './propose/propose-error.ts';
