import { HandoverError } from './handover-error.ts';
import type { Person } from './types.ts';

// What git strips from both ends of a name (ident.c, crud()).
const CRUD = /^[\x00-\x20.,:;<>"\\']+|[\x00-\x20.,:;<>"\\']+$/g;

/**
 * The author as git records them: the name without the spaces and
 * punctuation git trims from its ends, so a patch and a pull request name
 * the same person; what git could not keep whole is refused.
 */
export function gitPerson({ name, email }: Person): Person {
  const tidy = name.replace(CRUD, '');
  if (tidy === '' || /[<>"()\\\p{Cc}]/u.test(tidy)) {
    throw new HandoverError(`The author's name "${name}" cannot stand in a commit: it must hold a letter, and no < > " ( ) \\ or line breaks.`);
  }
  if (!/^[^\s<>@]+@[^\s<>@]+$/.test(email)) throw new HandoverError(`"${email}" is not an e-mail address git accepts for the author.`);
  return { name: tidy, email };
}
