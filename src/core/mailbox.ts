/** What a domain may hold before it is handed to the URL parser, which would read `/`, `?`, `#`, `@` or `:` as URL syntax. */
const DOMAIN = /^[\p{L}\p{M}\p{N}.-]+$/u;

/**
 * The mailbox an address reaches, as one key for counting the mails sent to
 * it: trimmed; the name part lower-cased (in Unicode NFC) and without its
 * `+tag` (anna+1@… and anna+2@… are one inbox); the domain lower-cased in its
 * IDNA ASCII form (müller.be and xn--mller-kva.be are one host). Text that is
 * no address comes back trimmed and lower-cased; it never throws.
 *
 * Pure (the URL API does the IDNA mapping, so core needs no node:punycode).
 * Dots in the name part are kept, but where the provider ignores them
 * (SAME_INBOX): a.nna@gmail.com and anna@googlemail.com are one inbox.
 */
export function mailboxOf(address: string): string {
  const text = address.trim();
  const at = text.lastIndexOf('@');
  if (at <= 0) return text.toLowerCase();
  const local = text.slice(0, at).toLowerCase().normalize('NFC');
  // A name part that is all tag (+tag@…) is kept whole: nothing would be left to count.
  const name = local.split('+')[0] || local;
  const domain = asciiDomain(text.slice(at + 1));
  const provider = SAME_INBOX.get(domain);
  return provider ? `${name.replaceAll('.', '')}@${provider}` : `${name}@${domain}`;
}

/**
 * Domains whose provider delivers every dotted spelling of a name to one inbox, each with the domain its
 * key is counted under. Storage keeps keys made by this table (the outbox's limit_key): a change here
 * needs a migration that rewrites them (server/storage/migrations/005-gmail-limit-keys.ts).
 */
const SAME_INBOX: ReadonlyMap<string, string> = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

function asciiDomain(domain: string): string {
  // A trailing dot names the same host (the DNS root); spaces before it are no part of a domain.
  const lower = domain.toLowerCase().replace(/[.\s]+$/u, '');
  if (!DOMAIN.test(lower)) return lower;
  try {
    return new URL(`http://${lower}`).hostname;
  } catch {
    return lower;
  }
}
