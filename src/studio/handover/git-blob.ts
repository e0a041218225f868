import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const NO_BLOB = '0'.repeat(40);

/**
 * Git's object id of a file's content: SHA-1 of `blob <length>\0` and the
 * bytes. Computed without crypto.subtle, which plain-http origins lack.
 */
export function gitBlobId(bytes: Uint8Array): string {
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const object = new Uint8Array(header.length + bytes.length);
  object.set(header);
  object.set(bytes, header.length);
  return bytesToHex(sha1(object));
}
