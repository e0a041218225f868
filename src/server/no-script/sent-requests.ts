import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../storage/database';

const cookieName = (brandId: string) => `portal-sent-${brandId}`;

/**
 * The confirmation after a post without scripts. The redirect after the post
 * carries nothing personal: a session cookie (HttpOnly, for the brand's pages
 * only) names the stored request, and its page shows the address the request
 * was confirmed to, as the scripted page remembers it for the tab's session.
 */
export class SentRequests {
  private readonly byReference;
  private readonly byKey;

  constructor(db: Db) {
    this.byReference = db.prepare('SELECT payload FROM requests WHERE reference = ? AND brand = ?');
    this.byKey = db.prepare('SELECT reference FROM requests WHERE idempotency_key = ? AND brand = ?');
  }

  remember(req: FastifyRequest, reply: FastifyReply, brandId: string, reference: string): void {
    reply.setCookie(cookieName(brandId), reference, {
      path: `/${brandId}/`,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
    });
  }

  /** The e-mail address of the request this browser sent for the brand, if any. */
  sentTo(req: FastifyRequest, brandId: string): string | undefined {
    const reference = req.cookies[cookieName(brandId)];
    if (!reference) return undefined;
    const row = this.byReference.get(reference, brandId) as { payload: string } | undefined;
    return row ? (JSON.parse(row.payload) as { client_email?: string }).client_email : undefined;
  }

  /** The reference stored under an idempotency key for the brand (a double post finds the first one). */
  referenceOf(key: string, brandId: string): string | undefined {
    return (this.byKey.get(key, brandId) as { reference: string } | undefined)?.reference;
  }
}
