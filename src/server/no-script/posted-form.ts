import { stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FileFacts } from '../../core/types';
import { HttpError } from '../http-error';
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
 */
export async function readPostedForm(req: FastifyRequest, intake: PhotoIntake, rules: PhotoRules): Promise<PostedForm> {
  if (!req.isMultipart()) throw new HttpError(415, 'Expected multipart/form-data.');
  const form: PostedForm = { fields: [], photos: [] };
  try {
    for await (const part of req.parts({ limits: { ...LIMITS, fileSize: rules.maxBytes } })) {
      if (part.type === 'field') {
        form.fields.push([part.fieldname, String(part.value)]);
        continue;
      }
      if (!part.filename) {
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
    throw error;
  }
  return form;
}
