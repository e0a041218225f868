/**
 * Makes a phone photo small enough to upload quickly, keeping a type plate
 * readable: decoded with its EXIF orientation applied, scaled so the longest
 * side is at most 2,560 px, re-encoded as JPEG at quality 0.85. Runs in a
 * worker where the browser has OffscreenCanvas there, else on the page.
 * A small photo, or one the browser cannot shrink, is sent as it is: this
 * module only ever answers with a file to send, never with an error.
 * Loaded (import()) only when a photo is chosen.
 */
import { PHOTO_LIMITS } from '../../../../core/photo-limits';
import { encodeSmaller } from './shrink-encode';

function inWorker(file: File): Promise<Blob | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./shrink-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<Blob | null | { error: string }>) => {
      worker.terminate();
      const data = event.data;
      if (data && !(data instanceof Blob)) reject(new Error(data.error));
      else resolve(data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage(file);
  });
}

function jpegName(name: string): string {
  return `${name.replace(/\.[^.]*$/, '') || 'foto'}.jpg`;
}

export async function shrinkPhoto(file: File): Promise<File> {
  if (file.size <= PHOTO_LIMITS.smallBytes) return file;
  try {
    const canWork = typeof Worker === 'function' && typeof OffscreenCanvas === 'function';
    const smaller = canWork ? await inWorker(file).catch(() => encodeSmaller(file)) : await encodeSmaller(file);
    return smaller ? new File([smaller], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified }) : file;
  } catch {
    return file;
  }
}

/** A small JPEG of the photo, upright, as a data: URL: kept for the thumbnail after a reload. */
export async function thumbnailUrl(file: File, width = 128): Promise<string> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image', resizeWidth: width, resizeQuality: 'medium' });
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
    return canvas.toDataURL('image/jpeg', 0.7);
  } finally {
    bitmap.close();
  }
}
