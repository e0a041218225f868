import { writeFileSync } from 'node:fs';
import type { PhotoStore } from '../../src/server/storage/photo-store';

/** An unclaimed photo stored as an upload leaves it (bytes, uploader, time): its new name. */
export async function storedPhoto(
  photos: PhotoStore,
  { owner = '192.0.2.1', bytes = 'jpeg-bytes', createdAt }: { owner?: string; bytes?: string; createdAt?: number } = {},
): Promise<string> {
  const temp = photos.tempPath();
  writeFileSync(temp, bytes);
  return (await photos.add(temp, 'jpg', owner, createdAt)).name;
}
