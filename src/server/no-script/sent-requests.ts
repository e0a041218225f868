import type { FastifyReply, FastifyRequest } from 'fastify';
import { roleValue } from '../../core/form-model';
import type { RepairRequest } from '../../core/types';
import { derivedKey } from '../derived-key';
import type { FormRevisions } from '../revisions/form-revisions';
import type { Storage } from '../storage/port';
import { SealedValues } from './sealed-value';

const cookieName = (brandId: string) => `portal-sent-${brandId}`;

/** Long enough to read the confirmation and reload it; a shared computer's next user finds the form. */
const CONFIRMATION_MS = 30 * 60_000;

/** The seals of the confirmation cookie, under a key of their own derived from the server's secret. */
export function confirmationSeals(secret: Buffer): SealedValues {
  return new SealedValues(derivedKey(secret, 'sent-request cookie'));
}

/** A request stored under a submission key. */
export interface EarlierRequest {
  reference: string;
  payload: RepairRequest;
}

/**
 * The confirmation after a post without scripts. The redirect after the post
 * carries nothing personal: a cookie (HttpOnly, for the brand's pages only,
 * 30 minutes) holds the request's reference sealed with the server's key, and
 * the page shows the address the request was confirmed to, as the scripted
 * page remembers it for the tab's session. Only this server can make such a
 * cookie, so knowing a reference shows nobody its address.
 */
export class SentRequests {
  private readonly seals: SealedValues;

  constructor(
    private readonly storage: Pick<Storage, 'requestByReference' | 'requestByKey'>,
    secret: Buffer,
    /** Each request's form as it was sent: which field holds the address it was confirmed to. */
    private readonly forms: Pick<FormRevisions, 'of'>,
  ) {
    this.seals = confirmationSeals(secret);
  }

  remember(req: FastifyRequest, reply: FastifyReply, brandId: string, reference: string, now = Date.now()): void {
    reply.setCookie(cookieName(brandId), this.seals.seal(reference, brandId, now + CONFIRMATION_MS), {
      path: `/${brandId}/`,
      httpOnly: true,
      // Lax: sent with the 303's own GET and a reload, never with another site's subrequests.
      sameSite: 'lax',
      secure: req.protocol === 'https',
      maxAge: CONFIRMATION_MS / 1000,
    });
  }

  /** The customer asked for a new request: the brand's pages show the form again. */
  forget(req: FastifyRequest, reply: FastifyReply, brandId: string): void {
    if (req.cookies[cookieName(brandId)] !== undefined) reply.clearCookie(cookieName(brandId), { path: `/${brandId}/` });
  }

  /** The request this browser sent for the brand, if its cookie is genuine and current: its reference and the address it was confirmed to. */
  async confirmed(req: FastifyRequest, brandId: string): Promise<{ reference: string; email: string } | undefined> {
    const sealed = req.cookies[cookieName(brandId)];
    const reference = sealed && this.seals.open(sealed, brandId);
    if (!reference) return undefined;
    const request = await this.storage.requestByReference(reference);
    if (request?.brand !== brandId) return undefined;
    const form = await this.forms.of(request);
    const email = form && roleValue(form.model, JSON.parse(request.payload) as RepairRequest, 'customer-email');
    return email ? { reference: request.reference, email } : undefined;
  }

  /** The request stored under an idempotency key for the brand (a double post finds the first one). */
  async earlier(key: string, brandId: string): Promise<EarlierRequest | undefined> {
    const row = await this.storage.requestByKey(key, brandId);
    return row && { reference: row.reference, payload: JSON.parse(row.payload) as RepairRequest };
  }
}
