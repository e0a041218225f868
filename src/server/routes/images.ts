import { finished } from 'node:stream/promises';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { photoOwner } from '../client-key';
import type { RateLimit } from '../config';
import { HttpError } from '../http-error';
import { asClientError } from '../multipart-errors';
import type { PortalMetrics } from '../metrics';
import type { PostOrigins } from '../post-origin';
import { tooLargeMessage, type PhotoIntake, type PhotoRules } from '../photos/photo-intake';
import { RoomRefusal, type DiskGuard } from '../photos/disk-guard';
import { text, type Languages } from '../../core/texts';
import { askedLocale } from '../asked-locale';
import { STORE_UNAVAILABLE } from '../storage/store-unavailable';

export interface ImagesRouteOptions {
  intake: PhotoIntake;
  rules: PhotoRules;
  room: DiskGuard;
  rateLimit: RateLimit;
  metrics: PortalMetrics;
  origins: PostOrigins;
  /** The language files: a refusal for want of room is said in the uploader's language. */
  languages: Languages;
}

/** Why an upload was refused, by the status it got (for /metrics). */
const REFUSAL_REASONS: Record<number, string> = {
  400: 'malformed',
  403: 'cross-site',
  413: 'too-large',
  415: 'not-an-image',
  429: 'rate-limited',
  503: 'unavailable',
};

/** Room for the multipart boundaries and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Busboy's limit errors for a second part, a second file or a text field. */
const EXTRA_PART_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

const ONE_IMAGE = 'Send exactly one file, in the field "image".';

/** The parser's complaints, in words for an upload; a second part, a second file or a text field first. */
function uploadError(error: unknown): unknown {
  if (EXTRA_PART_CODES.has((error as { code?: string }).code ?? '')) return new HttpError(400, ONE_IMAGE);
  return asClientError(error, `The upload is not well-formed multipart/form-data. ${ONE_IMAGE}`);
}

/** A refusal that passes (503: the disk guard's quotas, the database gone), not one of the upload itself. */
function refusedForNow(refusal: unknown): boolean {
  const { statusCode, code } = refusal as { statusCode?: number; code?: string };
  return statusCode === 503 || code === STORE_UNAVAILABLE;
}

/** Says a refusal for want of room in the language the page asks for (X-Portal-Locale), else the fallback's. */
function inLanguage(refusal: unknown, req: FastifyRequest, languages: Languages): unknown {
  if (!(refusal instanceof RoomRefusal)) return refusal;
  const minutes = Math.ceil((refusal.headers.retryAfterSeconds ?? 60) / 60);
  refusal.said = text(languages, askedLocale(req.headers, languages), `upload.${refusal.reason}`, { minutes });
  return refusal;
}

/**
 * POST /api/forms/images: one photo in the multipart field `image` →
 * `{"filename": "<uuid>.jpg|png"}`. Oversized uploads are refused before
 * reading (declared length) or the moment they pass the limit, with
 * `Connection: close` so the rest of the body is never read.
 */
export const imagesRoute: FastifyPluginAsync<ImagesRouteOptions> = async (app, { intake, rules, room, rateLimit, metrics, origins, languages }) => {
  // A form on another site can post here too. The page's scripts in a browser sending neither Origin nor
  // Fetch Metadata cannot be told apart from it, and what such a post stores is a photo no request uses.
  async function refuseOtherSites(req: FastifyRequest) {
    if (origins.judge(req) === 'other-site') throw new HttpError(403, 'An upload from another site is refused.');
  }

  async function refuseDeclaredOversize(req: FastifyRequest, reply: FastifyReply) {
    const declared = Number(req.headers['content-length']);
    if (declared > rules.maxBytes + MULTIPART_OVERHEAD_BYTES) {
      await reply.code(413).header('connection', 'close').send({ error: tooLargeMessage(rules.maxBytes) });
    }
  }

  app.post(
    '/api/forms/images',
    {
      config: { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.windowMs } },
      onRequest: [refuseOtherSites, refuseDeclaredOversize],
      onResponse: async (_req, reply) => {
        if (reply.statusCode === 201) metrics.upload('accepted');
        else metrics.upload('refused', REFUSAL_REASONS[reply.statusCode] ?? 'error');
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new HttpError(415, `Expected multipart/form-data. ${ONE_IMAGE}`);
      let received: string | undefined;
      try {
        const declared = Number(req.headers['content-length']);
        await room.checkRoom(photoOwner(req.ip), Number.isFinite(declared) ? declared : rules.maxBytes);
        const parts = req.parts({ limits: { fileSize: rules.maxBytes, files: 1, fields: 0, parts: 1 } });
        for await (const part of parts) {
          if (part.type !== 'file' || part.fieldname !== 'image') throw new HttpError(400, ONE_IMAGE);
          received = await intake.receive(part.file);
        }
        if (!received) throw new HttpError(400, ONE_IMAGE);
      } catch (error) {
        if (received) await intake.discard(received);
        const refusal = inLanguage(uploadError(error), req, languages);
        if (refusedForNow(refusal) && Number(req.headers['content-length']) <= rules.maxBytes + MULTIPART_OVERHEAD_BYTES) {
          // No room or no database, for now: the rest of a body of allowed size is read and dropped, so a client
          // still sending gets the 503 and its Retry-After instead of a broken pipe.
          req.raw.resume();
          await finished(req.raw).catch(() => {});
        } else {
          // The rest of the body may be unread: never reuse this connection.
          reply.header('connection', 'close');
        }
        throw refusal;
      }
      return reply.code(201).send({ filename: await intake.store(received, photoOwner(req.ip)) });
    },
  );
};
