import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import type { PhotoRegistry } from '../storage/photo-registry';
import { HttpError } from '../http-error';
import { limitConcurrency } from './limit-concurrency';
import type { PhotoFolder } from './photo-folder';
import { reencodePhoto, type PhotoFormat } from './reencode';

export interface PhotoRules {
  maxBytes: number;
  /** Allowed MIME types, e.g. image/jpeg, image/png. */
  types: string[];
}

/** A multipart file stream: busboy emits `limit` when the size limit cuts it. */
export type UploadStream = Readable & { truncated?: boolean };

const FORMATS: Record<string, { format: PhotoFormat; extension: 'jpg' | 'png' }> = {
  'image/jpeg': { format: 'jpeg', extension: 'jpg' },
  'image/png': { format: 'png', extension: 'png' },
};

/** libvips reports a failed write as text, not as an errno. */
const NO_SPACE = /no space left|ENOSPC/i;

/**
 * Turns an uploaded file into a stored photo: raw bytes to a private temp
 * file (cut off at the size limit), type judged by content, re-encoded,
 * fsynced, renamed to a generated name and registered as unused.
 */
export class PhotoIntake {
  private readonly decodeSlot: <T>(task: () => Promise<T>) => Promise<T>;

  constructor(
    private readonly folder: PhotoFolder,
    private readonly registry: PhotoRegistry,
    private readonly rules: PhotoRules,
    private readonly maxPixels: number,
    decodeConcurrency: number,
  ) {
    this.decodeSlot = limitConcurrency(decodeConcurrency);
  }

  /** Streams an upload to a temp file; 413 (and no file left) as soon as it passes the limit. */
  async receive(stream: UploadStream): Promise<string> {
    const temp = this.folder.tempPath();
    stream.once('limit', () => stream.destroy(new HttpError(413, tooLargeMessage(this.rules.maxBytes))));
    try {
      await pipeline(stream, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      if (stream.truncated) throw new HttpError(413, tooLargeMessage(this.rules.maxBytes));
      return temp;
    } catch (error) {
      await this.folder.remove(temp);
      throw error;
    }
  }

  /** Removes a received file that will not be stored (the request turned out malformed). */
  async discard(received: string): Promise<void> {
    await this.folder.remove(received);
  }

  /** Checks and stores a received temp file (which it always removes); returns the stored name. */
  async store(received: string): Promise<string> {
    const encoded = this.folder.tempPath();
    try {
      const mime = (await fileTypeFromFile(received))?.mime;
      const kind = mime && this.rules.types.includes(mime) ? FORMATS[mime] : undefined;
      if (!kind) {
        throw new HttpError(415, 'The file is not a JPEG or PNG image.');
      }
      await this.decodeSlot(() => reencodePhoto(received, encoded, kind.format, this.maxPixels)).catch((error: unknown) => {
        if (error instanceof Error && NO_SPACE.test(error.message)) throw Object.assign(error, { code: 'ENOSPC' });
        // Corrupt data, a truncated image or too many pixels: not a photo we accept.
        throw new HttpError(415, 'The image could not be read or is too large in pixels.');
      });
      const name = await this.folder.commit(encoded, kind.extension);
      try {
        this.registry.register(name);
      } catch (error) {
        await this.folder.remove(this.folder.pathOf(name));
        throw error;
      }
      return name;
    } finally {
      await Promise.all([this.folder.remove(received), this.folder.remove(encoded)]);
    }
  }
}

export function tooLargeMessage(maxBytes: number): string {
  return `The file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`;
}
