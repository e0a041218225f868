import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http-error';
import { PHOTO_PATH_PREFIX, type PhotoLinks } from '../photos/photo-links';
import { STORED_PHOTO, storedPhotoType } from '../storage/photo-folder';
import type { PhotoStore } from '../storage/photo-store';

export interface PhotosRouteOptions {
  links: PhotoLinks;
  photos: PhotoStore;
}

/**
 * GET /api/photos/<name>?expires=…&signature=…: a stored photo, only
 * through a link the server signed (webhooks carry them). Unsigned or
 * altered → 403, expired → 410; there is no listing.
 */
export const photosRoute: FastifyPluginAsync<PhotosRouteOptions> = async (app, { links, photos }) => {
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>(`${PHOTO_PATH_PREFIX}:name`, async (req, reply) => {
    const { name } = req.params;
    const verdict = links.check(`${PHOTO_PATH_PREFIX}${name}`, req.query.expires, req.query.signature);
    if (verdict === 'forbidden' || !STORED_PHOTO.test(name)) throw new HttpError(403, 'This photo link is not valid.');
    if (verdict === 'expired') throw new HttpError(410, 'This photo link has expired.');
    const bytes = await photos.read(name);
    if (bytes === undefined) throw new HttpError(404, 'This photo is no longer stored.');
    return reply
      .header('content-type', storedPhotoType(name))
      .header('cache-control', 'private, no-store')
      .send(bytes);
  });
};
