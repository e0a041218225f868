import { Agent, request } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { Brand } from '../../../core/types';
import { ConfigError, type Env } from '../../config-error';
import type { DueDelivery } from '../../storage/records';
import { DeliveryError } from '../kinds';
import type { PhotoLinks } from '../../photos/photo-links';
import type { FormRevisions } from '../../revisions/form-revisions';
import { webhookBody } from './webhook-event';

export interface WebhookSenderOptions {
  brands: ReadonlyMap<string, Brand>;
  signers: ReadonlyMap<string, Webhook>;
  links: PhotoLinks;
  /** Each request's form as it was sent: the names of its photos' files (in the desk's language). */
  forms: Pick<FormRevisions, 'languagesOf'>;
  timeoutMs: number;
  maxInFlight: number;
  /** Extra trusted certificate authorities (PEM), e.g. a company's own. */
  ca?: Buffer;
}

/** The receiver's answers that may succeed later; any other 4xx (and 3xx) is final. */
const RETRYABLE = new Set([408, 429]);

/**
 * The signer of each brand with a webhook, its secret read from the variable
 * the brand file names. Start fails on a missing or malformed secret rather
 * than queueing webhooks that can never be signed.
 */
export function webhookSigners(brands: ReadonlyMap<string, Brand>, env: Env): Map<string, Webhook> {
  const signers = new Map<string, Webhook>();
  for (const brand of brands.values()) {
    const name = brand.serviceDesk.webhook?.secretEnv;
    if (!name) continue;
    const secret = env[name]?.trim();
    if (!secret) throw new ConfigError(`${name} must be set: brands/${brand.id}.json names it as its webhook secret`);
    try {
      signers.set(brand.id, new Webhook(secret));
    } catch {
      throw new ConfigError(`${name} must be a webhook secret such as whsec_ followed by base64`);
    }
  }
  return signers;
}

/**
 * Webhooks carry signed links to the photos, which must lead to the portal
 * as the receiver reaches it: with a webhook configured, an unset PUBLIC_URL
 * stops the start instead of sending links to nowhere.
 */
export function requirePublicUrl(brands: ReadonlyMap<string, Brand>, publicUrl: string): void {
  const files = [...brands.values()].filter((brand) => brand.serviceDesk.webhook).map((brand) => `brands/${brand.id}.json`);
  if (files.length === 0 || publicUrl) return;
  const whose = files.length === 1 ? `the webhook of ${files[0]} carries` : `the webhooks of ${files.join(', ')} carry`;
  throw new ConfigError(`PUBLIC_URL must be set: ${whose} links to the photos, which need the portal's public address (e.g. PUBLIC_URL=https://service.example.com)`);
}

/**
 * Posts one webhook: JSON signed per Standard Webhooks (webhook-id stays the
 * same on every retry). 2xx = delivered; 408, 429, 5xx, timeouts and network
 * errors are retried; other answers are final. The agent keeps at most
 * `maxInFlight` sockets, and every attempt ends within `timeoutMs`.
 */
export function createWebhookSender(options: WebhookSenderOptions) {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxInFlight, ca: options.ca });

  async function deliver(delivery: DueDelivery): Promise<void> {
    const brand = options.brands.get(delivery.brand);
    const signer = options.signers.get(delivery.brand);
    if (!brand || !signer) throw new DeliveryError(`brand ${delivery.brand} has no webhook any more`, true);
    const languages = await options.forms.languagesOf({ variant: delivery.variant, form_revision: delivery.formRevision, payload: delivery.payload });
    const now = new Date();
    const body = webhookBody(delivery.body, options.links, { languages, language: delivery.language ?? brand.serviceDesk.language }, now.getTime());
    const id = `msg_${delivery.messageId}`;
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'repair-portal-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signer.sign(id, now, body),
    };
    const status = await post(delivery.recipient, headers, body);
    if (status.code >= 200 && status.code < 300) return;
    const retry = RETRYABLE.has(status.code) || status.code >= 500;
    throw new DeliveryError(`receiver answered ${status.code}`, !retry, status.retryAfterMs);
  }

  function post(url: string, headers: Record<string, string>, body: string): Promise<{ code: number; retryAfterMs?: number }> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers, signal: AbortSignal.timeout(options.timeoutMs) }, (res) => {
        // The answer's body is not read: drain it so the socket returns to the pool.
        res.resume();
        res.on('end', () => resolve({ code: res.statusCode ?? 0, retryAfterMs: retryAfter(res.headers['retry-after']) }));
        res.on('error', reject);
      });
      req.on('error', (error) =>
        reject(new DeliveryError(error.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : error.message)),
      );
      req.end(body);
    });
  }

  return { deliver, close: () => agent.destroy() };
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from now; anything else is ignored. */
export function retryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d{1,6}$/.test(value)) return Number(value) * 1000;
  const at = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
