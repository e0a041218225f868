import type { FastifyPluginAsync } from 'fastify';
import { brandDefaultLocale, offeredLocale } from '../../core/locale';
import type { Brand } from '../../core/types';
import type { RateLimit } from '../config';
import { clientKey } from '../client-key';
import { HttpError } from '../http-error';
import type { Intake } from '../intake/submit-request';

export interface FormsRouteOptions {
  brands: ReadonlyMap<string, Brand>;
  intake: Intake;
  rateLimit: RateLimit;
}

/**
 * POST /api/forms/:brand: the request as JSON, taken in by the intake
 * (intake/submit-request.ts); answers 201 `{"reference"}` only once the
 * request, its photo claims and its deliveries are committed. The same
 * Idempotency-Key gets the same answer.
 */
export const formsRoute: FastifyPluginAsync<FormsRouteOptions> = async (app, { brands, intake, rateLimit }) => {
  app.post<{ Params: { brand: string } }>(
    '/api/forms/:brand',
    { config: { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.windowMs } } },
    async (req, reply) => {
      const brand = brands.get(req.params.brand);
      if (!brand) throw new HttpError(404, 'Unknown brand.');
      const locale = offeredLocale(req.headers['x-portal-locale']?.toString().toLowerCase(), brand, brandDefaultLocale(brand));
      const result = await intake.submit({ brand, body: req.body, locale, idempotencyKey: req.headers['idempotency-key'], client: clientKey(req.ip) });
      switch (result.kind) {
        case 'stored':
          // The log names a request by its reference only: what the customer typed stays in the database.
          req.log.info({ reference: result.reference, brand: brand.id, replay: result.replay }, 'request stored');
          return reply.code(201).send({ reference: result.reference });
        case 'bad-key':
          throw new HttpError(400, 'Idempotency-Key must be 1 to 128 printable characters.');
        case 'invalid':
          throw new HttpError(400, result.error, { fields: result.fields });
        case 'photos-unavailable':
          throw new HttpError(422, 'A photo is unknown or already used by another request; upload it again.', { photos: result.fields });
        case 'key-conflict':
          throw new HttpError(422, 'This Idempotency-Key was already used for a different request.');
      }
    },
  );
};
