import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config-error';

export type LinkVerdict = 'valid' | 'forbidden' | 'expired';

export const PHOTO_PATH_PREFIX = '/api/photos/';

/**
 * Signed, expiring download links for stored photos (for webhook
 * receivers): HMAC-SHA256 over the path and the expiry with a server
 * secret. Photo names are random UUIDs and no route lists them; a link
 * works for one photo until it expires, and changing any part breaks it.
 */
export class PhotoLinks {
  constructor(
    private readonly secret: Buffer,
    private readonly publicUrl: string,
    private readonly ttlMs: number,
  ) {}

  link(name: string, now = Date.now()): { url: string; expiresAt: string } {
    const expires = Math.floor((now + this.ttlMs) / 1000);
    const path = `${PHOTO_PATH_PREFIX}${name}`;
    const url = `${this.publicUrl}${path}?expires=${expires}&signature=${this.sign(path, String(expires))}`;
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** Forbidden when the signature is missing or wrong (whatever the expiry); expired only when it is genuine. */
  check(path: string, expires: unknown, signature: unknown, now = Date.now()): LinkVerdict {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return 'forbidden';
    const expected = Buffer.from(this.sign(path, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forbidden';
    return Number(expires) * 1000 < now ? 'expired' : 'valid';
  }

  private sign(path: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('base64url');
  }
}

/**
 * PHOTO_URL_SECRET when set; otherwise a random key made on first start and
 * kept in DATA_DIR (mode 0600), so links stay valid across restarts.
 */
export function photoLinkSecret(configured: string, dataDir: string, { mayCreate = true }: { mayCreate?: boolean } = {}): Buffer {
  if (configured) return Buffer.from(configured);
  const file = join(dataDir, 'photo-url.key');
  // A database with requests but no key is a restore that left the key behind: a new one would break every link already sent.
  if (!mayCreate && !existsSync(file)) {
    throw new ConfigError(`${file} is missing but the database holds requests: restore it from the backup (or set PHOTO_URL_SECRET to the secret used before)`);
  }
  try {
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim());
}
