import { stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FileFacts } from '../../core/types';
import { HttpError } from '../http-error';
import { asClientError } from '../multipart-errors';
import type { PhotoIntake, PhotoRules } from '../photos/photo-intake';

/** A photo as it arrived: what the picker would say of it, and the received temp file (unless cut at the limit). */
export interface PostedPhoto {
  control: string;
  facts: FileFacts;
  received?: string;
}

export interface PostedForm {
  fields: [string, string][];
  photos: PostedPhoto[];
}

/** Text fields of the form, with room; two files. */
const LIMITS = { fields: 64, files: 2, parts: 66, fieldSize: 64 * 1024 } as const;

/**
 * Reads a form posted without scripts: its text fields, and each chosen
 * photo streamed to a temp file through the same intake as uploads. A
 * picker left empty (no name, no bytes) is no photo. A photo over the size
 * limit is cut off and reported by its facts, so the rules say 'File too large'.
 * A body that breaks off (cut off, malformed, over a limit) is the client's
 * error (4xx) and leaves no file behind; `form` then holds the text fields read
 * before it broke off, to show them again.
 */
export async function readPostedForm(req: FastifyRequest, intake: PhotoIntake, rules: PhotoRules, form: PostedForm): Promise<void> {
  if (!req.isMultipart()) throw new HttpError(415, 'Expected multipart/form-data.');
  try {
    for await (const part of req.parts({ limits: { ...LIMITS, fileSize: rules.maxBytes } })) {
      // A browser sends no part for a control without a name: such a part is nobody's field.
      const named = typeof part.fieldname === 'string';
      if (part.type === 'field') {
        if (named) form.fields.push([part.fieldname, String(part.value)]);
        continue;
      }
      if (!part.filename || !named) {
        part.file.resume();
        await finished(part.file);
        continue;
      }
      const facts: FileFacts = { name: part.filename, size: 0, type: part.mimetype };
      try {
        const received = await intake.receive(part.file, 'finish');
        facts.size = (await stat(received)).size;
        form.photos.push({ control: part.fieldname, facts, received });
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 413)) throw error;
        form.photos.push({ control: part.fieldname, facts: { ...facts, size: rules.maxBytes + 1 } });
      }
    }
  } catch (error) {
    await Promise.all(form.photos.map((p) => (p.received ? intake.discard(p.received) : undefined)));
    form.photos = [];
    throw asClientError(error, 'The form could not be read.');
  }
}
