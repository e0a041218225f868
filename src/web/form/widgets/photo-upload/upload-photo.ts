import type { UploadJob, UploadTarget } from './send-photo';

/**
 * Shrinks the photo first, then uploads what that gives: the progress is the
 * real upload of the bytes sent. Both steps' code (shrink-photo.ts,
 * send-photo.ts) loads only now, when a photo is chosen.
 */
export function shrinkAndUpload(to: UploadTarget, file: File, onProgress: (percent: number) => void): UploadJob {
  let upload: UploadJob | undefined;
  let aborted = false;
  const sending = import('./send-photo');
  const promise = import('./shrink-photo')
    .then(({ shrinkPhoto }) => shrinkPhoto(file))
    // Shrinking is a convenience: if its code cannot load, the original goes.
    .catch(() => file)
    .then(async (toSend) => {
      const { uploadPhoto } = await sending;
      if (aborted) throw new DOMException('upload aborted', 'AbortError');
      upload = uploadPhoto(to, toSend, onProgress);
      return upload.promise;
    });
  return {
    promise,
    abort() {
      aborted = true;
      upload?.abort();
    },
  };
}
