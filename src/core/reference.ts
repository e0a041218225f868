/**
 * A request's reference, short enough to read out over the phone and type
 * from a mail: ten symbols of Crockford's base 32 (digits and the letters
 * without I, L, O and U, so no 0/O, 1/I/L or U/V pairs to confuse), shown in
 * groups as `K7QM-4XRT-9P`. Fifty random bits: a collision is rare, and the
 * store retries with a new reference when one happens. Requests stored
 * before short references keep their UUID.
 */

export const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Symbols in a reference; the random bytes it is made from, one per symbol. */
export const REFERENCE_LENGTH = 10;

/** Groups of 4, 4 and 2: short enough to hold in mind while reading or typing. */
const GROUPS = [4, 4, 2];

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** Look-alikes people type for a symbol of the alphabet (Crockford's decoding, plus U, read as V). */
const LOOK_ALIKES: Record<string, string> = { O: '0', I: '1', L: '1', U: 'V' };

function grouped(symbols: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const size of GROUPS) parts.push(symbols.slice(at, (at += size)));
  return parts.join('-');
}

/**
 * A new reference from REFERENCE_LENGTH random bytes (the caller's
 * cryptographic source: core imports no `node:crypto`). Each byte's low five
 * bits pick a symbol; 256 is a multiple of 32, so every symbol is equally likely.
 */
export function referenceFromBytes(bytes: Uint8Array): string {
  if (bytes.length < REFERENCE_LENGTH) throw new RangeError(`a reference needs ${REFERENCE_LENGTH} random bytes`);
  let symbols = '';
  for (let i = 0; i < REFERENCE_LENGTH; i++) symbols += REFERENCE_ALPHABET[bytes[i] & 31];
  return grouped(symbols);
}

/**
 * A reference as someone typed or read it, in the form it is stored: any
 * case, spaces and dashes anywhere, look-alikes (O for 0, I or L for 1, U for
 * V) taken for the symbol meant. A UUID (an older request's) comes back in
 * lower case with its dashes. Anything else comes back trimmed, to be looked
 * up as it is (and not found).
 */
export function storedReference(typed: string): string {
  const text = typed.trim();
  const compact = text.replace(/[\s\p{Pd}]+/gu, '');
  if (UUID.test(compact)) {
    const hex = compact.replace(/-/g, '').toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  const symbols = [...compact.toUpperCase()].map((c) => LOOK_ALIKES[c] ?? c).join('');
  const isShort = symbols.length === REFERENCE_LENGTH && [...symbols].every((c) => REFERENCE_ALPHABET.includes(c));
  return isShort ? grouped(symbols) : text;
}

