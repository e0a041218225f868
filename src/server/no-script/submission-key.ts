import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUBMISSION_FIELD } from '../../core/form-post';
import { derivedKey } from '../derived-key';

const EMPTY_KEY = new RegExp(`(<input type="hidden" name="${SUBMISSION_FIELD}" value=")(")`);

const FORM_COOKIE = 'portal-form';

/**
 * Fills the form's hidden idempotency key: a new one per page view, or the
 * one a re-rendered post came with (it stored nothing yet). The prerendered
 * HTML is the same for everyone, so the key is filled as the page is sent.
 */
export function withSubmissionKey(html: string, key: string): string {
  return html.replace(EMPTY_KEY, (_m, start: string, end: string) => `${start}${key}${end}`);
}

/**
 * The per-page-view keys of the form posted without scripts, and the proof of
 * origin for browsers that send neither Origin nor Fetch Metadata (PostOrigins
 * cannot judge them). Such a browser gets a random cookie (HttpOnly,
 * SameSite=Strict, this browser only) and keys `<uuid>.<mac>`, the MAC binding
 * the key to that cookie under the server's key: another site can neither read
 * the cookie nor a page holding a key, so it cannot post a key bound to its
 * visitor's cookie. Browsers that send Fetch Metadata (every current one) need
 * no cookie and get a plain UUID.
 */
export class SubmissionKeys {
  private readonly key: Buffer;

  /** `secret`: the server's (every instance's) secret; the keys' own is derived from it. */
  constructor(secret: Buffer) {
    this.key = derivedKey(secret, 'submission key');
  }

  /** A new key for a page about to be sent in answer to `req`. */
  issue(req: FastifyRequest, reply: FastifyReply): string {
    const key = randomUUID();
    if (req.headers['sec-fetch-site'] !== undefined) return key;
    let cookie = req.cookies[FORM_COOKIE];
    if (!cookie) {
      cookie = randomBytes(16).toString('base64url');
      reply.setCookie(FORM_COOKIE, cookie, { path: '/', httpOnly: true, sameSite: 'strict', secure: req.protocol === 'https' });
    }
    return `${key}.${this.mac(key, cookie)}`;
  }

  /** Whether `key` was issued to the browser that sent `req` (its form cookie). */
  isBound(req: FastifyRequest, key: string): boolean {
    const cookie = req.cookies[FORM_COOKIE];
    const [id, mac, ...rest] = key.split('.');
    if (!cookie || !mac || rest.length > 0) return false;
    const expected = Buffer.from(this.mac(id, cookie));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(id: string, cookie: string): string {
    return createHmac('sha256', this.key).update(`${id}\n${cookie}`).digest('base64url').slice(0, 22);
  }
}
