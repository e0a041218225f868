import type { RepairRequest } from '../../core/types';

/** Each post carries its photos anew, and they are stored under new names: they say nothing about the content. */
const PHOTO_NAMES = new Set(['image1', 'image2']);

/**
 * Whether a post under a submission key that already stored a request is
 * that request again (a double click, a resend): the same text in every field.
 */
export function isSameRequest(stored: RepairRequest, posted: RepairRequest): boolean {
  const a = stored as unknown as Record<string, unknown>;
  const b = posted as unknown as Record<string, unknown>;
  const fields = new Set([...Object.keys(a), ...Object.keys(b)].filter((name) => !PHOTO_NAMES.has(name)));
  return [...fields].every((name) => a[name] === b[name]);
}
