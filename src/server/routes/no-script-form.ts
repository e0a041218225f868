import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { matchBrandRoute, type BrandRoute } from '../../core/brands';
import { fieldErrors, messageTable, type MessageTable } from '../../core/field-errors';
import type { FormModel } from '../../core/form-model';
import { postedFormData } from '../../core/form-post';
import { pageValues, shapeRequest } from '../../core/payload';
import type { Brand, RepairFormData } from '../../core/types';
import type { RateLimit } from '../config';
import { clientKey, photoOwner } from '../client-key';
import { HttpError } from '../http-error';
import type { Intake, SubmitResult } from '../intake/submit-request';
import type { PostOrigins } from '../post-origin';
import { postedKey, type Post, type PostAnswers } from '../no-script/post-answers';
import { readPostedForm } from '../no-script/posted-form';
import { PostedPhotos } from '../no-script/posted-photos';
import type { SentRequests } from '../no-script/sent-requests';
import type { SubmissionKeys } from '../no-script/submission-key';
import type { DiskGuard } from '../photos/disk-guard';
import type { PhotoIntake, PhotoRules } from '../photos/photo-intake';
import type { FormDataValidator } from '../validation/form-data-validator';
import type { PortalData } from '../portal-data';
import { formOf } from '../validation/request-validator';

export interface NoScriptFormOptions {
  brands: ReadonlyMap<string, Brand>;
  /** The forms, and the languages the pages are offered in. */
  data: Pick<PortalData, 'forms' | 'languages'>;
  photos: PhotoIntake;
  rules: PhotoRules;
  /** Room for the photos a post brings, per client and in total, as for uploads. */
  room: DiskGuard;
  formValidator: FormDataValidator;
  intake: Intake;
  answers: PostAnswers;
  sent: SentRequests;
  keys: SubmissionKeys;
  origins: PostOrigins;
  /** Accepted requests per client (the submit limit), and posts of any outcome (checked before the body is read). */
  limits: { accepted: RateLimit; posts: RateLimit };
}

/**
 * POST /:brand/:locale/:country: the form as a browser sends it without
 * scripts (multipart, photos included). Judged by the same schema, keywords
 * and messages as the page; on errors the page comes back with the values
 * kept (photos stored already stay) and the errors shown; once stored, a 303
 * to the page, which then shows the confirmation (a reload sends nothing).
 * Whatever else happens is a page too, in the route's language, with a notice
 * and what could be read kept: never the JSON the API answers.
 */
export const noScriptFormRoute: FastifyPluginAsync<NoScriptFormOptions> = async (app, options) => {
  const { brands, data: portal, photos: photoIntake, rules, room, formValidator, intake, answers, sent, keys, origins, limits } = options;
  const languages = new Set(portal.languages.keys());
  const posts = new WeakMap<FastifyRequest, Post>();
  const acceptedLimit = app.createRateLimit({
    max: limits.accepted.max,
    timeWindow: limits.accepted.windowMs,
    keyGenerator: (req) => `no-script-accepted:${clientKey(req.ip)}`,
  });

  app.post(
    '/:brand/:locale/:country',
    {
      // Before the body is read: a post from another site is refused, and counts toward nothing.
      onRequest: async (req) => {
        const route = matchBrandRoute(req.url.split('?')[0], brands, languages);
        if (!route) throw new HttpError(404, 'Not found.');
        const sender = origins.judge(req);
        posts.set(req, { route, ours: sender === 'this-site', read: { fields: [], photos: [] } });
        if (sender === 'other-site') throw new HttpError(403, 'A form posted from another site is refused.');
      },
      config: { rateLimit: { max: limits.posts.max, timeWindow: limits.posts.windowMs } },
      errorHandler: (error, req, reply) => answers.error(error, req, reply, posts.get(req)),
    },
    async (req, reply) => {
      const post = posts.get(req)!;
      const { route } = post;
      const { brand, locale } = route;
      const model = formOf(portal, brand);
      const declared = Number(req.headers['content-length']);
      await room.checkRoom(photoOwner(req.ip), Number.isFinite(declared) ? declared : 2 * rules.maxBytes);
      await readPostedForm(req, photoIntake, rules, post.read);
      const photos = new PostedPhotos(post.read.photos, model, photoIntake);
      try {
        const key = postedKey(post.read.fields);
        // A browser that sent neither Origin nor Fetch Metadata proves the form is its own by the key (no-script/submission-key.ts).
        if (!post.ours && !(key && keys.isBound(req, key))) throw new HttpError(403, 'A form posted without proof of its page is refused.');
        post.ours = true;
        const data = { ...postedFormData(post.read.fields, model.schema), ...pageValues(model, locale) };
        post.data = data;
        const earlier = key && (await sent.earlier(key, brand.id));
        if (earlier) {
          await photos.discardWaiting();
          return answers.repost(req, reply, route, earlier, data as RepairFormData);
        }
        // Judged once, as the page judges a form whose photos are on their way: each picker's rules first
        // (size, type), and only a photo they pass is stored; one whose content is no photo says so on its picker.
        const pending = photos.place(data);
        const judged = formValidator.errors(brand, data as RepairFormData, locale, pending);
        const refused = await photos.store(data, (picker) => Boolean(judged[picker]?.length), photoOwner(req.ip));
        const messages = messageTable(portal.languages, brand.form, locale);
        const errors = { ...judged, ...fieldErrors(refused, messages) };
        const formData = data as RepairFormData;
        if (Object.keys(errors).length > 0) return answers.invalid(req, reply, route, { formData, errors }, key);
        const outcome = await intake.submit({
          brand,
          body: shapeRequest(formData, model, brand, locale),
          locale,
          judged: true,
          idempotencyKey: key,
          client: clientKey(req.ip),
          // Only a request about to be stored counts toward the submit limit: corrections never lock a customer out.
          admit: async () => {
            const limit = await acceptedLimit(req);
            if (!limit.isAllowed && limit.isExceeded) throw new HttpError(429, 'Too many requests. Please try again later.', {}, { retryAfterSeconds: limit.ttlInSeconds });
          },
        });
        return answerOutcome(outcome, { answers, sent, req, reply, route, formData, key, model, messages });
      } finally {
        await photos.discardWaiting();
      }
    },
  );
};

interface Answering {
  answers: PostAnswers;
  sent: SentRequests;
  req: FastifyRequest;
  reply: FastifyReply;
  route: BrandRoute;
  formData: RepairFormData;
  key: string | undefined;
  model: FormModel;
  messages: MessageTable;
}

/** The page that answers what the intake did with a judged post. */
async function answerOutcome(outcome: SubmitResult, { answers, sent, req, reply, route, formData, key, model, messages }: Answering) {
  const { brand } = route;
  switch (outcome.kind) {
    case 'invalid':
    case 'bad-key':
      return answers.invalid(req, reply, route, { formData, errors: outcome.kind === 'invalid' ? outcome.fields : {} }, key);
    case 'stored':
      // The log names a request by its reference only, as the JSON route's does.
      req.log.info({ reference: outcome.reference, brand: brand.id, replay: outcome.replay }, 'request stored');
      return answers.confirm(req, reply, route, outcome.reference);
    case 'key-conflict': {
      // Two posts of one page at once: the photos of each were stored apart, the first request won.
      const first = key && (await sent.earlier(key, brand.id));
      if (first) return answers.repost(req, reply, route, first, formData);
      throw new HttpError(409, 'This form was sent already.');
    }
    case 'photos-unavailable': {
      const issues = outcome.fields.map((target) => {
        delete formData[target];
        delete formData[model.aliases[target]];
        return { keyword: 'required', instancePath: '', params: { missingProperty: target } };
      });
      return answers.invalid(req, reply, route, { formData, errors: fieldErrors(issues, messages, model.aliases) }, key);
    }
  }
}
