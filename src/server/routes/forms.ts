import type { FastifyPluginAsync } from 'fastify';
import { resolveLocale } from '../../core/locale';
import type { Brand } from '../../core/types';
import type { RateLimit } from '../config';
import { HttpError } from '../http-error';
import type { PortalMetrics } from '../metrics';
import type { RequestStore } from '../storage/request-store';
import { storeRequest } from '../storage/store-request';
import type { RequestValidator } from '../validation/request-validator';

export interface FormsRouteOptions {
  brands: ReadonlyMap<string, Brand>;
  validator: RequestValidator;
  store: RequestStore;
  rateLimit: RateLimit;
  metrics: PortalMetrics;
}

/** Printable ASCII, as the page's UUIDs are; bounded so it cannot bloat the index. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/**
 * POST /api/forms/:brand: validates the body with the brand's variant schema
 * and answers 201 `{"reference"}` only once the request, its photo claims
 * and its deliveries (mails, desk, webhook) are committed. The same Idempotency-Key gets the same answer.
 */
export const formsRoute: FastifyPluginAsync<FormsRouteOptions> = async (app, { brands, validator, store, rateLimit, metrics }) => {
  app.post<{ Params: { brand: string } }>(
    '/api/forms/:brand',
    { config: { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.windowMs } } },
    async (req, reply) => {
      const brand = brands.get(req.params.brand);
      if (!brand) throw new HttpError(404, 'Unknown brand.');
      const headerLocale = resolveLocale(req.headers['x-portal-locale'] as string | undefined);
      const key = req.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
        throw new HttpError(400, 'Idempotency-Key must be 1 to 128 printable characters.');
      }

      const verdict = validator.check(brand, req.body, headerLocale);
      if (!verdict.ok) throw new HttpError(400, verdict.error, { fields: verdict.fields });
      const request = verdict.request;
      // The extended form carries its language; the simple one only has the header.
      const locale = request.language ?? headerLocale;

      const outcome = await storeRequest(store, brand, request, locale, key);
      switch (outcome.kind) {
        case 'stored':
          if (!outcome.replay) metrics.requestAccepted(brand.id);
          // The log names a request by its reference only: what the customer typed stays in the database.
          req.log.info({ reference: outcome.reference, brand: brand.id, replay: outcome.replay }, 'request stored');
          return reply.code(201).send({ reference: outcome.reference });
        case 'photos-unavailable':
          throw new HttpError(422, 'A photo is unknown or already used by another request; upload it again.', {
            photos: outcome.fields,
          });
        case 'key-conflict':
          throw new HttpError(422, 'This Idempotency-Key was already used for a different request.');
      }
    },
  );
};
