import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '../storage/port';

const cookieName = (brandId: string) => `portal-sent-${brandId}`;

/**
 * The confirmation after a post without scripts. The redirect after the post
 * carries nothing personal: a session cookie (HttpOnly, for the brand's pages
 * only) names the stored request, and its page shows the address the request
 * was confirmed to, as the scripted page remembers it for the tab's session.
 */
export class SentRequests {
  constructor(private readonly storage: Pick<Storage, 'requestByReference' | 'referenceOfKey'>) {}

  remember(req: FastifyRequest, reply: FastifyReply, brandId: string, reference: string): void {
    reply.setCookie(cookieName(brandId), reference, {
      path: `/${brandId}/`,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
    });
  }

  /** The e-mail address of the request this browser sent for the brand, if any. */
  async sentTo(req: FastifyRequest, brandId: string): Promise<string | undefined> {
    const reference = req.cookies[cookieName(brandId)];
    if (!reference) return undefined;
    const request = await this.storage.requestByReference(reference);
    return request?.brand === brandId ? (JSON.parse(request.payload) as { client_email?: string }).client_email : undefined;
  }

  /** The reference stored under an idempotency key for the brand (a double post finds the first one). */
  async referenceOf(key: string, brandId: string): Promise<string | undefined> {
    return this.storage.referenceOfKey(key, brandId);
  }
}
