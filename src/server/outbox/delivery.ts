/** What goes out for a request: mails to people, the desk's mail, the ticketing webhook. */
export const DELIVERY_KINDS = ['confirmation', 'dealer', 'desk', 'webhook'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** Mails to addresses the portal has not verified: counted against the per-recipient limit. */
export const UNVERIFIED_KINDS: readonly DeliveryKind[] = ['confirmation', 'dealer'];

/** Mails and webhooks are sent by separate workers, each with its own limits. */
export type Channel = 'mail' | 'webhook';

/** A delivery to queue with its request, in the same transaction. */
export interface QueuedDelivery {
  kind: DeliveryKind;
  /** Mail: the address(es), comma-separated; webhook: its URL. */
  to: string;
  subject: string;
  /** Mail: the plain text; webhook: the event as JSON, photo links added when sent. */
  text: string;
}

/** A queued delivery that is due, with the request it carries. */
export interface DueDelivery {
  id: number;
  kind: DeliveryKind;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  /** Stable over every retry: the mail's Message-ID and the webhook-id. */
  messageId: string;
  reference: string;
  brand: string;
  /** The stored request as JSON. */
  payload: string;
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
