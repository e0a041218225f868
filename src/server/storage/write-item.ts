import { createHash } from 'node:crypto';
import type { Locale, Variant } from '../../core/types';
import type { QueuedDelivery } from '../outbox/delivery';
import type { DeliveryUpdate } from '../outbox/outbox-rows';
import type { Outcome } from './group-commit';

/** A validated request, ready to store: plain data, as it crosses to SQLite's writer thread. */
export interface WriteItem {
  brand: string;
  variant: Variant;
  locale: Locale;
  /** The request as JSON. */
  payload: string;
  image1: string;
  image2: string;
  idempotencyKey?: string;
  /** Used if the request is stored, not if the key replays an earlier one. */
  reference: string;
  deliveries: QueuedDelivery[];
}

export type SubmitOutcome =
  | { kind: 'stored'; reference: string; replay: boolean }
  /** image1/image2 not stored here, or already used by another request. */
  | { kind: 'photos-unavailable'; fields: PhotoField[] }
  /** The key was used before with a different request. */
  | { kind: 'key-conflict' };

type PhotoField = 'image1' | 'image2';

export interface WriterOptions {
  /** Mails to one unverified address per 24 hours; more are not queued (the request still is). */
  mailsPerRecipientPerDay: number;
}

/** Stores requests, each with its photos claimed and its deliveries queued; resolves once committed. */
export interface RequestWriter {
  write(items: WriteItem[]): Promise<Outcome<SubmitOutcome>[]>;
  /** Records delivery attempts (outbox-rows.ts), where requests are written: off the event loop with SQLite. */
  recordDeliveries(updates: readonly DeliveryUpdate[], now: number): Promise<void>;
  /** False once nothing can be stored any more (SQLite's writer thread died): readiness reports it. */
  readonly alive: boolean;
  close(): Promise<void>;
}

export const DAY_MS = 24 * 60 * 60_000;

/** What an Idempotency-Key is compared by: the same brand and request give the same hash. */
export function payloadHash(item: WriteItem): string {
  return createHash('sha256').update(`${item.brand}\n${item.payload}`).digest('hex');
}

/** The earlier request under the same key, as the submit sees it: the same one again, or a conflict. */
export function replayOf(item: WriteItem, earlier: { reference: string; payload_hash: string }): SubmitOutcome {
  return earlier.payload_hash === payloadHash(item) ? { kind: 'stored', reference: earlier.reference, replay: true } : { kind: 'key-conflict' };
}

/** The photo fields that cannot be claimed, given the names that are free: a photo is used once, by one request. */
export function unavailablePhotos(item: WriteItem, free: ReadonlySet<string>): PhotoField[] {
  const fields = (['image1', 'image2'] as const).filter((f) => !free.has(item[f]));
  if (item.image1 === item.image2) fields.push('image2');
  return [...new Set(fields)];
}
