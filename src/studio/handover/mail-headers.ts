import { HandoverError } from './handover-error.ts';
import { gitPerson } from './person.ts';
import type { Person } from './types.ts';

// RFC 2047 section 5(3): what may stand unencoded in an encoded word of a header phrase.
const PLAIN = /^[A-Za-z0-9!*+\-/]$/;
// An encoded word is at most 75 characters: `=?UTF-8?q?` and `?=` take 12.
const WORD_TEXT = 63;
const utf8 = new TextEncoder();

/**
 * Header text as git format-patch writes it: ASCII as it is, anything else
 * as UTF-8 quoted-printable encoded words on folded lines, which git's
 * mailinfo decodes back to the same text.
 */
export function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) && !text.includes('=?') ? text : encodedWords(text);
}

function encodedWords(text: string): string {
  const words: string[] = [];
  let word = '';
  for (const char of text) {
    const encoded = PLAIN.test(char) ? char : [...utf8.encode(char)].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    if (word.length + encoded.length > WORD_TEXT) {
      words.push(word);
      word = '';
    }
    word += encoded;
  }
  words.push(word);
  return words.map((w) => `=?UTF-8?q?${w}?=`).join('\n ');
}

/** `Name <email>`; a name beyond plain words always encoded, so git never needs to unquote it. */
export function mailbox(author: Person): string {
  const { name, email } = gitPerson(author);
  return `${/^[A-Za-z0-9 .'-]+$/.test(name) ? name : encodedWords(name)} <${email}>`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 2822 date in UTC, so the same change gives the same patch in any time zone. */
export function mailDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new HandoverError('The change has no valid date.');
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${time} +0000`;
}
