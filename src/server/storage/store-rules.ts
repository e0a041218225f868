import { createHash } from 'node:crypto';
import type { NewRequest, QueuedDelivery, SubmitOutcome } from './records';

/**
 * The rules of storing a request, decided here once for every backend; the
 * adapters (sqlite/, postgres/) only fetch what they need and write what they
 * decide, inside one transaction.
 */

export const DAY_MS = 24 * 60 * 60_000;

/** What an Idempotency-Key is compared by: the same brand and request give the same hash. */
export function payloadHash(item: Pick<NewRequest, 'brand' | 'payload'>): string {
  return createHash('sha256').update(`${item.brand}\n${item.payload}`).digest('hex');
}

/** The earlier request under the same key, as the submit sees it: the same one again, or a conflict. */
export function replayOf(item: NewRequest, earlier: { reference: string; payload_hash: string }): SubmitOutcome {
  return earlier.payload_hash === payloadHash(item) ? { kind: 'stored', reference: earlier.reference, replay: true } : { kind: 'key-conflict' };
}

/** The photo fields that cannot be claimed, given the names claimed: a photo is used once, by one request, in one field. */
export function unavailablePhotos(item: Pick<NewRequest, 'photos'>, claimed: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  return item.photos.flatMap(({ field, name }) => {
    const unavailable = !claimed.has(name) || seen.has(name);
    seen.add(name);
    return unavailable ? [field] : [];
  });
}

/** The names a request claims, as one JSON array parameter (both backends take a list of any length this way). */
export function photoNames(item: Pick<NewRequest, 'photos'>): string {
  return JSON.stringify(item.photos.map((p) => p.name));
}

/** The limit keys a request's deliveries count under: the adapter counts what each has had in the last day. */
export function limitKeys(deliveries: readonly QueuedDelivery[]): string[] {
  return [...new Set(deliveries.flatMap((d) => (d.limitKey === undefined ? [] : [d.limitKey])))];
}

/** Each delivery's place (from 1) among the request's deliveries under its limit key; 1 for one without a key. */
export function placesUnderLimit(deliveries: readonly QueuedDelivery[]): number[] {
  const seen = new Map<string, number>();
  return deliveries.map(({ limitKey }) => {
    if (limitKey === undefined) return 1;
    const place = (seen.get(limitKey) ?? 0) + 1;
    seen.set(limitKey, place);
    return place;
  });
}

/**
 * The deliveries to queue: a form can aim mail at any address, so past the
 * limit of mails per key in a day, mail to it is dropped silently (the
 * request is still stored). `sent` counts each key's mails of the last day.
 * (PostgreSQL's portal_store_request applies the same rule to the places.)
 */
export function withinMailLimit(deliveries: readonly QueuedDelivery[], sent: ReadonlyMap<string, number>, limit: number): QueuedDelivery[] {
  const places = placesUnderLimit(deliveries);
  return deliveries.filter(({ limitKey }, i) => limitKey === undefined || (sent.get(limitKey) ?? 0) + places[i] <= limit);
}

/** When a delivery is first tried: at once, or when the mail cap lets it go (it still counts as queued now). */
export function firstAttempt(d: Pick<QueuedDelivery, 'notBefore'>, now: number): number {
  return d.notBefore !== undefined && d.notBefore > now ? d.notBefore : now;
}
