import type { Brand, Locale, RepairRequest } from '../../../core/types';
import { photoFileName } from '../mail/desk-mail';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import type { PhotoLinks } from '../../photos/photo-links';

export const EVENT_TYPE = 'repair_request.received';

interface StoredEvent {
  reference: string;
  brand: string;
  brandName: string;
  variant: string;
  locale: Locale;
  receivedAt: string;
  request: Omit<RepairRequest, 'image1' | 'image2'>;
  photos: { image1: string; image2: string };
}

/** The webhook queued with a request; its photo links are signed when it is sent, so they are fresh on every retry. */
export function composeWebhook(
  request: RepairRequest,
  brand: Brand,
  locale: Locale,
  reference: string,
  receivedAt: number,
): QueuedDelivery | undefined {
  const webhook = brand.serviceDesk.webhook;
  if (!webhook) return undefined;
  const { image1, image2, ...fields } = request;
  const event: StoredEvent = {
    reference,
    brand: brand.id,
    brandName: brand.name,
    variant: brand.variant,
    locale,
    receivedAt: new Date(receivedAt).toISOString(),
    request: fields,
    photos: { image1, image2 },
  };
  return queued('webhook', webhook.url, EVENT_TYPE, JSON.stringify(event));
}

/** The body as sent (Standard Webhooks' type/timestamp/data envelope), with a signed, expiring link per photo. */
export function webhookBody(stored: string, links: PhotoLinks, deskLanguage: Locale, now = Date.now()): string {
  const { photos, ...event } = JSON.parse(stored) as StoredEvent;
  const data = {
    ...event,
    photos: (['image1', 'image2'] as const).map((field) => ({
      field,
      fileName: photoFileName(event.reference, field, photos[field], deskLanguage),
      contentType: photos[field].endsWith('.png') ? 'image/png' : 'image/jpeg',
      ...links.link(photos[field], now),
    })),
  };
  return JSON.stringify({ type: EVENT_TYPE, timestamp: new Date(now).toISOString(), data });
}
