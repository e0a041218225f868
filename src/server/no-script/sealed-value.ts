import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A short text sealed for a cookie (AES-256-GCM): unreadable without the key,
 * and any change to it, or a seal made for another context (another brand's
 * cookie), fails to open. The expiry is sealed in, so a copied cookie does not
 * outlive it whatever the browser does.
 */
export class SealedValues {
  constructor(private readonly key: Buffer) {}

  seal(value: string, context: string, expiresAt: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(JSON.stringify({ v: value, e: expiresAt })), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The value, if the seal is genuine, made for `context`, and not expired; otherwise undefined. */
  open(token: string, context: string, now = Date.now()): string | undefined {
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(context))
        .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      const { v, e } = JSON.parse(plain.toString('utf8')) as { v: string; e: number };
      return e > now ? v : undefined;
    } catch {
      // Forged, altered or sealed with another key: as if there were no cookie.
      return undefined;
    }
  }
}
