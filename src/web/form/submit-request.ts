import type { Locale, RepairRequest } from '../../core/types';

/** crypto.randomUUID exists only in secure contexts; getRandomValues everywhere. */
export function newUuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface SubmitOptions {
  apiBase: string;
  brandId: string;
  body: RepairRequest;
  idempotencyKey: string;
  locale: Locale;
}

/**
 * The server no longer holds photos the request names (their upload expired, or was removed): 422 with
 * `photos`, the request fields whose stored names it does not know. Choosing those photos again helps;
 * sending the same again cannot.
 */
export class PhotosGone extends Error {
  constructor(readonly fields: string[]) {
    super(`photos no longer stored: ${fields.join(', ')}`);
  }
}

/** The request fields a 422 names as photos no longer stored; none for any other answer. */
async function photosGone(response: Response): Promise<string[]> {
  if (response.status !== 422) return [];
  const answer = (await response.json().catch(() => null)) as { photos?: unknown } | null;
  return Array.isArray(answer?.photos) ? answer.photos.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * Any 2xx is success (spec §7); the request's reference is read from the
 * body when it carries one (`{"reference"}`), else success has none to show.
 * Throws on non-2xx and network failure: PhotosGone when what failed is photos the server no longer holds.
 */
export async function submitRepairRequest({ apiBase, brandId, body, idempotencyKey, locale }: SubmitOptions): Promise<{ reference?: string }> {
  const response = await fetch(`${apiBase}/api/forms/${encodeURIComponent(brandId)}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Idempotency-Key': idempotencyKey,
      'X-Portal-Locale': locale,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const gone = await photosGone(response);
    throw gone.length > 0 ? new PhotosGone(gone) : new Error(`submit failed with status ${response.status}`);
  }
  let answer: unknown = null;
  try {
    answer = await response.json();
  } catch {
    // No body, or not JSON: still a success, with no reference to show.
  }
  const reference = (answer as { reference?: unknown } | null)?.reference;
  return typeof reference === 'string' && reference ? { reference } : {};
}
