import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedReference } from '../../core/reference';
import { findSubjectData, heldRequest } from '../../server/privacy/subject-data';
import type { FormRevisions } from '../../server/revisions/form-revisions';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';
import { timeWithOffset } from './time-with-offset';

/**
 * `show <reference>`: the request with its deliveries (mails, webhook) and its photos' names, as JSON;
 * the reference as typed or read out (any case, spaces, dashes), times on `timeZone`'s clock with its offset.
 */
export async function showRequest(storage: Storage, typed: string, photosTo: string | undefined, timeZone: string): Promise<void> {
  const reference = storedReference(typed);
  const request = await storage.requestByReference(reference);
  if (!request) throw new CommandError(`No request with reference ${reference} in ${storage.description}.`);
  const shown = await heldRequest(storage, request, timeWithOffset(timeZone, { iso: true }));
  await handOverPhotos(storage, shown.photos, photosTo);
  console.log(JSON.stringify(shown, null, 2));
}

/** `show --email`: everything held about the person (a subject-access request), as JSON; times as `show <reference>` writes them. */
export async function showSubject(storage: Storage, forms: Pick<FormRevisions, 'of'>, email: string, photosTo: string | undefined, timeZone: string): Promise<void> {
  const held = await findSubjectData(storage, forms, email, timeWithOffset(timeZone, { iso: true }));
  await handOverPhotos(storage, held.requests.flatMap((r) => r.photos), photosTo);
  console.log(JSON.stringify(held, null, 2));
}

/** With --photos-to, writes the photos there to hand over (personal data: owner only). */
async function handOverPhotos(storage: Storage, names: string[], folder: string | undefined): Promise<void> {
  if (!folder) return;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const name of names) {
    const bytes = await storage.photos.read(name);
    if (bytes) writeFileSync(join(folder, name), bytes, { mode: 0o600 });
  }
}
