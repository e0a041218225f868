import { mailboxOf } from '../../core/mailbox';
import type { QueuedDelivery } from '../storage/records';

/**
 * What goes out for a request, and how: each kind's channel (the worker that
 * sends it) and whether its address is one the portal has not verified
 * (counted against the per-recipient mail limit and the brand's mail cap:
 * `customer`, the customer's own mail, waits past the cap; `notice`, to
 * someone else, is not sent). Storage keeps these as data; a new kind is a
 * line here, its composer and its sender.
 */
export const KINDS = {
  confirmation: { channel: 'mail', unverified: 'customer' },
  dealer: { channel: 'mail', unverified: 'notice' },
  desk: { channel: 'mail', unverified: false },
  webhook: { channel: 'webhook', unverified: false },
} as const;

export type DeliveryKind = keyof typeof KINDS;
export type Channel = (typeof KINDS)[DeliveryKind]['channel'];
export const DELIVERY_KINDS = Object.keys(KINDS) as DeliveryKind[];
export const CHANNELS = [...new Set(DELIVERY_KINDS.map((k) => KINDS[k].channel))] as Channel[];

/**
 * A delivery's id, from its request's reference and its kind: the same on every attempt, after a crash,
 * on another instance and after a redelivery, so a receiver that dedupes on the Message-ID or the
 * webhook-id sees each delivery once.
 */
export function deliveryId(reference: string, kind: DeliveryKind): string {
  return `${reference}.${kind}`;
}

/**
 * A delivery of `kind` for the request `reference` to queue with it: its channel follows from the kind, and an
 * unverified address counts against the mail limit under the mailbox it reaches (customer and dealer mails alike).
 */
export function queued(kind: DeliveryKind, reference: string, to: string, subject: string, text: string, language: string): QueuedDelivery {
  const { channel, unverified } = KINDS[kind];
  return { kind, channel, to, subject, text, language, messageId: deliveryId(reference, kind), ...(unverified ? { limitKey: mailboxOf(to) } : {}) };
}

/** A failed attempt; `permanent` ends the retries, `retryAfterMs` is the receiver's wish. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
