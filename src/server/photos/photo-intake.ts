import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { HttpError } from '../http-error';
import type { FairQueue } from './fair-queue';
import type { PhotoStore } from '../storage/photo-store';
import { OverBudgetError, reencodePhoto, type DecodeBudget, type PhotoFormat } from './reencode';

export interface PhotoRules {
  maxBytes: number;
  /** Allowed MIME types, e.g. image/jpeg, image/png. */
  types: string[];
}

/** A multipart file stream: busboy emits `limit` when the size limit cuts it. */
export type UploadStream = Readable & { truncated?: boolean };

const FORMATS: Record<string, PhotoFormat> = { 'image/jpeg': 'jpeg', 'image/png': 'png' };
const EXTENSIONS = { jpeg: 'jpg', png: 'png' } as const;

/** libvips reports a failed write as text, not as an errno. */
const NO_SPACE = /no space left|ENOSPC/i;

/**
 * Turns an uploaded file into a stored photo: raw bytes to a private temp
 * file (cut off at the size limit), type judged by content, re-encoded,
 * and stored under a generated name as unclaimed (the storage's PhotoStore).
 */
export class PhotoIntake {
  constructor(
    private readonly photos: PhotoStore,
    private readonly rules: PhotoRules,
    private readonly budget: DecodeBudget,
    /** Decoding takes turns between clients (see clientKey), so one client's flood cannot hold up everyone. */
    private readonly decoding: FairQueue,
  ) {}

  /**
   * Streams an upload to a temp file; 413 (and no file left) once it passes
   * the limit. `abort`: at once, the request is refused whole (the upload
   * API). `finish`: the rest of the file is read and dropped, so the other
   * parts of a form posted without scripts still arrive and the browser,
   * which sends the whole body before it reads the answer, gets its page.
   */
  async receive(stream: UploadStream, overLimit: 'abort' | 'finish' = 'abort'): Promise<string> {
    const temp = this.photos.tempPath();
    if (overLimit === 'abort') stream.once('limit', () => stream.destroy(new HttpError(413, tooLargeMessage(this.rules.maxBytes))));
    try {
      await pipeline(stream, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      if (stream.truncated) throw new HttpError(413, tooLargeMessage(this.rules.maxBytes));
      return temp;
    } catch (error) {
      await this.photos.removeTemp(temp);
      throw error;
    }
  }

  /** Removes a received file that will not be stored (the request turned out malformed). */
  async discard(received: string): Promise<void> {
    await this.photos.removeTemp(received);
  }

  /** Checks and stores a received temp file of `client` (which it always removes); returns the stored name. */
  async store(received: string, client: string): Promise<string> {
    const encoded = this.photos.tempPath();
    try {
      const mime = (await fileTypeFromFile(received))?.mime;
      const sent = mime && this.rules.types.includes(mime) ? FORMATS[mime] : undefined;
      if (!sent) {
        throw new HttpError(415, 'The file is not a JPEG or PNG image.');
      }
      const kept = await this.decoding.run(client, () => reencodePhoto(received, encoded, sent, this.budget)).catch((error: unknown) => {
        if (error instanceof HttpError) throw error;
        if (error instanceof Error && NO_SPACE.test(error.message)) throw Object.assign(error, { code: 'ENOSPC' });
        if (error instanceof OverBudgetError) {
          throw new HttpError(415, 'The image is larger than a phone photo (too many pixels, or more than 8 bits per colour).');
        }
        // Corrupt data, a truncated image, or it took too long: not a photo we accept.
        throw new HttpError(415, 'The image could not be read.');
      });
      return (await this.photos.add(encoded, EXTENSIONS[kept], client)).name;
    } finally {
      await Promise.all([this.photos.removeTemp(received), this.photos.removeTemp(encoded)]);
    }
  }
}

export function tooLargeMessage(maxBytes: number): string {
  return `The file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`;
}
