import { mailboxOf } from '../../core/mailbox';

/** An e-mail address as it stands in a text: no spaces, quotes, brackets or separators around it. */
const ADDRESS = /[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/gu;

export const ERASED = '[erased]';

/** The text with every spelling of the mailbox's address (any case, any +tag) replaced by ERASED. */
export function scrubAddress(text: string, mailbox: string): string {
  return text.replace(ADDRESS, (found) => (mailboxOf(found) === mailbox ? ERASED : found));
}
