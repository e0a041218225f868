import type { FormModel } from '../../core/form-model';
import type { RepairRequest } from '../../core/types';

/**
 * Whether a post under a submission key that already stored a request is
 * that request again (a double click, a resend): the same text in every
 * field. Each post carries its photos anew, stored under new names, so the
 * photo fields say nothing about the content.
 */
export function isSameRequest(model: Pick<FormModel, 'photos'>, stored: RepairRequest, posted: RepairRequest): boolean {
  const photos = new Set(model.photos.map((p) => p.target));
  const fields = new Set([...Object.keys(stored), ...Object.keys(posted)].filter((name) => !photos.has(name)));
  return [...fields].every((name) => stored[name] === posted[name]);
}
