/** Characters of a name part (RFC 5322 atext), with letters, marks and digits of any script (RFC 6531). */
const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
/** A domain label: letters and digits of any script, hyphens inside (an IDNA U-label, or its xn-- form). */
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?';

/**
 * JSON Schema's `idn-email`: an address whose name and domain may be written
 * in any script (jöran@müller.be), which mail servers deliver over SMTPUTF8
 * or with the domain in punycode. ajv-formats has no such format. Like its
 * ASCII `email`, a dot-atom name and a domain of at least two labels; nothing
 * invisible or direction-changing. A regular expression, not a function, so
 * the page's validators precompile it.
 */
export const IDN_EMAIL = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${LABEL}$`, 'iu');
