import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { brandPath, matchBrandRoute, type BrandRoute } from '../../core/brands';
import { fieldErrors, type FieldErrors } from '../../core/field-errors';
import { postedFormData, postedProperty, SUBMISSION_FIELD } from '../../core/form-post';
import { formSchemas, uploadAliases } from '../../core/form-schemas';
import type { FormSeed } from '../../core/form-seed';
import { shapeRequest } from '../../core/payload';
import type { Brand, RepairFormData } from '../../core/types';
import type { RateLimit } from '../config';
import { clientKey } from '../client-key';
import { HttpError } from '../http-error';
import type { SeededPages } from '../no-script/seeded-pages';
import type { SentRequests } from '../no-script/sent-requests';
import { readPostedForm, type PostedPhoto } from '../no-script/posted-form';
import type { PhotoIntake, PhotoRules } from '../photos/photo-intake';
import type { DiskGuard } from '../photos/disk-guard';
import { idempotencyKey } from '../intake/idempotency-key';
import type { Intake } from '../intake/submit-request';
import type { FormDataValidator } from '../validation/form-data-validator';

export interface NoScriptFormOptions {
  brands: ReadonlyMap<string, Brand>;
  photos: PhotoIntake;
  rules: PhotoRules;
  /** Room for the photos a post brings, per client and in total, as for uploads. */
  room: DiskGuard;
  formValidator: FormDataValidator;
  intake: Intake;
  pages: SeededPages;
  sent: SentRequests;
  rateLimit: RateLimit;
}

/**
 * POST /:brand/:locale/:country: the form as a browser sends it without
 * scripts (multipart, photos included). Judged by the same schema, keywords
 * and messages as the page; on errors the page comes back with the values
 * kept (photos stored already stay) and the errors shown; once stored, a 303
 * to the page, which then shows the confirmation (a reload sends nothing).
 */
export const noScriptFormRoute: FastifyPluginAsync<NoScriptFormOptions> = async (app, options) => {
  const { brands, photos: photoIntake, rules, room, formValidator, intake, pages, sent } = options;

  async function sendPage(reply: FastifyReply, route: BrandRoute, seed: FormSeed, key: string | undefined) {
    const html = await pages.render(route, seed, key);
    // Typed personal data: never kept by a cache.
    return reply.code(400).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  }

  function confirm(req: Parameters<SentRequests['remember']>[0], reply: FastifyReply, route: BrandRoute, reference: string) {
    sent.remember(req, reply, route.brand.id, reference);
    return reply.code(303).header('location', brandPath(route.brand.id, route.locale, route.country)).send();
  }

  app.post(
    '/:brand/:locale/:country',
    { config: { rateLimit: { max: options.rateLimit.max, timeWindow: options.rateLimit.windowMs } } },
    async (req, reply) => {
      const route = matchBrandRoute(req.url.split('?')[0], brands);
      if (!route) throw new HttpError(404, 'Not found.');
      const { brand, locale } = route;
      const { schema, uiSchema } = formSchemas[brand.variant];
      const aliases = uploadAliases(uiSchema);
      const targetOf = Object.fromEntries(Object.entries(aliases).map(([target, picker]) => [picker, target]));

      const declared = Number(req.headers['content-length']);
      await room.checkRoom(clientKey(req.ip), Number.isFinite(declared) ? declared : 2 * rules.maxBytes);
      const posted = await readPostedForm(req, photoIntake, rules);
      const waiting = new Set(posted.photos.filter((p) => p.received));
      try {
        // A submission key that is not one is no key: the form still goes.
        const submission = idempotencyKey(posted.fields.find(([name]) => name === SUBMISSION_FIELD)?.[1]);
        const key = submission.ok ? submission.key : undefined;
        const earlier = key && (await sent.referenceOf(key, brand.id));
        if (earlier) return confirm(req, reply, route, earlier);

        const data = postedFormData(posted.fields, schema) as Record<string, unknown>;
        if ('language' in schema.properties) data.language = locale;
        const photos = new Map<string, PostedPhoto>();
        for (const photo of posted.photos) {
          const picker = postedProperty(photo.control, schema);
          if (!picker || !targetOf[picker]) continue;
          photos.set(picker, photo);
          data[picker] = photo.facts;
          delete data[targetOf[picker]];
        }
        // The picker's rules first (size, type), as the page judges a chosen file before uploading it.
        const pending = [...photos].filter(([, p]) => p.received).map(([picker]) => targetOf[picker]);
        const chosen = formValidator.errors(brand, data as RepairFormData, locale, pending);
        const photoErrors: FieldErrors = {};
        for (const [picker, photo] of photos) {
          if (!photo.received || chosen[picker]?.length) continue;
          waiting.delete(photo);
          try {
            data[targetOf[picker]] = await photoIntake.store(photo.received, clientKey(req.ip));
          } catch (error) {
            if (!(error instanceof HttpError && error.statusCode === 415)) throw error;
            const issue = { keyword: 'fileRules', instancePath: `/${picker}`, params: { rule: 'types' } };
            Object.assign(photoErrors, fieldErrors([issue], brand.variant, locale));
          }
        }

        // A photo the picker's rules refused was chosen: its field says why, not that it is missing.
        const refused = [...photos.keys()].filter((picker) => chosen[picker]?.length).map((picker) => targetOf[picker]);
        const errors = { ...formValidator.errors(brand, data as RepairFormData, locale, refused), ...photoErrors };
        const seed = (found: FieldErrors): FormSeed => ({ brandId: brand.id, formData: data as RepairFormData, errors: found });
        if (Object.keys(errors).length > 0) return sendPage(reply, route, seed(errors), key);

        const body = shapeRequest(data as RepairFormData, schema, brand, locale);
        const outcome = await intake.submit({ brand, body, locale, idempotencyKey: key });
        switch (outcome.kind) {
          case 'invalid':
          case 'bad-key':
            return sendPage(reply, route, seed(outcome.kind === 'invalid' ? outcome.fields : {}), key);
          case 'stored':
            return confirm(req, reply, route, outcome.reference);
          case 'key-conflict': {
            // Two posts of one page at once: the photos of each were stored apart, the first request won.
            const first = key && (await sent.referenceOf(key, brand.id));
            if (first) return confirm(req, reply, route, first);
            throw new HttpError(409, 'This form was sent already.');
          }
          case 'photos-unavailable': {
            const issues = outcome.fields.map((target) => {
              delete data[target];
              delete data[aliases[target]];
              return { keyword: 'required', instancePath: '', params: { missingProperty: target } };
            });
            return sendPage(reply, route, seed(fieldErrors(issues, brand.variant, locale, aliases)), key);
          }
        }
      } finally {
        await Promise.all([...waiting].map((p) => photoIntake.discard(p.received!)));
      }
    },
  );
};
