import { requestPhotos, type FormModel } from '../../../core/form-model';
import type { Brand, Locale, RepairRequest } from '../../../core/types';
import { photoFileName, type RequestWords } from '../../../core/request-words';
import type { QueuedDelivery } from '../../storage/records';
import { queued } from '../kinds';
import type { PhotoLinks } from '../../photos/photo-links';
import { storedPhotoType } from '../../storage/photo-folder';

export const EVENT_TYPE = 'repair_request.received';

interface StoredEvent {
  reference: string;
  brand: string;
  brandName: string;
  /** The brand's form, under the key receivers already read (docs/adding-a-brand.md). */
  variant: string;
  locale: Locale;
  receivedAt: string;
  /** The request's fields but its photos. */
  request: Record<string, unknown>;
  /** Each photo's field and stored name, in form order. */
  photos: { field: string; name: string }[];
}

/** The webhook queued with a request; its photo links are signed when it is sent, so they are fresh on every retry. */
export function composeWebhook(
  model: Pick<FormModel, 'photos'>,
  request: RepairRequest,
  brand: Pick<Brand, 'id' | 'name' | 'form' | 'serviceDesk'>,
  locale: Locale,
  reference: string,
  receivedAt: number,
): QueuedDelivery | undefined {
  const webhook = brand.serviceDesk.webhook;
  if (!webhook) return undefined;
  const photos = requestPhotos(model, request);
  const fields = Object.fromEntries(Object.entries(request).filter(([field]) => !photos.some((p) => p.field === field)));
  const event: StoredEvent = {
    reference,
    brand: brand.id,
    brandName: brand.name,
    variant: brand.form,
    locale,
    receivedAt: new Date(receivedAt).toISOString(),
    request: fields,
    photos,
  };
  return queued('webhook', reference, webhook.url, EVENT_TYPE, JSON.stringify(event), brand.serviceDesk.language);
}

/** The body as sent (Standard Webhooks' type/timestamp/data envelope), with a signed, expiring link per photo. */
export function webhookBody(stored: string, links: PhotoLinks, words: RequestWords, now = Date.now()): string {
  const { photos, ...event } = JSON.parse(stored) as Omit<StoredEvent, 'photos'> & { photos: StoredEvent['photos'] | Record<string, string> };
  // Events queued by an earlier release name their photos {image1, image2}.
  const list = Array.isArray(photos) ? photos : Object.entries(photos).map(([field, name]) => ({ field, name }));
  const data = {
    ...event,
    photos: list.map(({ field, name }) => ({
      field,
      fileName: photoFileName(event.reference, field, name, words),
      contentType: storedPhotoType(name),
      ...links.link(name, now),
    })),
  };
  return JSON.stringify({ type: EVENT_TYPE, timestamp: new Date(now).toISOString(), data });
}
