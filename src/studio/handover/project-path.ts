import { HandoverError } from './handover-error.ts';

// The studio's files are named by ids (`brands/pelgrim.json`). Paths beyond
// these characters would need git's C-style quoting in a patch and care in a
// zip, so they are refused instead.
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Throws, in plain words, for a path the hand-over does not carry. */
export function checkProjectPath(path: string): void {
  const segments = path.split('/');
  const fine = segments.every((segment) => SEGMENT.test(segment) && segment !== '.git');
  if (!fine) {
    throw new HandoverError(
      `The file "${path}" cannot be handed over: a file's path in the project may hold only letters a-z and A-Z, digits, ".", "_" and "-", ` +
        'with "/" between folders, and may not start with a dot or a "/".',
    );
  }
}
