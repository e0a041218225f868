import { hkdfSync } from 'node:crypto';

/**
 * A key of its own for one purpose, derived from the server's secret (the
 * photo-link key every instance shares): a value made for one purpose can
 * never pass as another's, and the secret itself signs photo links only.
 */
export function derivedKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `repair-portal ${purpose}`, 32));
}
