const encoder = new TextEncoder();

/** Text is handed over as UTF-8; bytes as they are. */
export function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? encoder.encode(content) : content;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The bytes as text, or null where a line diff could not carry them through
 * `git am` byte for byte: not UTF-8, a NUL (git's own test for binary), or a
 * carriage return, which git am strips from every line it reads unless told
 * `--keep-cr`. Such files travel as a binary patch instead.
 */
export function diffableText(bytes: Uint8Array): string | null {
  if (bytes.includes(0) || bytes.includes(13)) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
