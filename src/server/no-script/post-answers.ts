import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { brandPath, type BrandRoute } from '../../core/brands';
import { postedFormData, SUBMISSION_FIELD } from '../../core/form-post';
import type { FormNotice, FormSeed, NoticeKind } from '../../core/form-seed';
import { shapeRequest } from '../../core/payload';
import type { RepairFormData } from '../../core/types';
import { errorAnswer } from '../plugins/error-handler';
import type { PortalData } from '../portal-data';
import type { PortalPages } from '../portal-pages';
import { formOf } from '../validation/request-validator';
import type { PostedForm } from './posted-form';
import { isSameRequest } from './repost';
import type { SeededPages } from './seeded-pages';
import type { EarlierRequest, SentRequests } from './sent-requests';
import type { SubmissionKeys } from './submission-key';
import { idempotencyKey } from '../intake/idempotency-key';

/** A post of the form as far as it got: its page, whether it is known to come from the portal's own page, and what was read of it. */
export interface Post {
  route: BrandRoute;
  ours: boolean;
  read: PostedForm;
  /** The form data as judged, once the body is read (stored photos included as they are stored). */
  data?: Record<string, unknown>;
}

/** As the JSON API accepts them (routes/forms.ts). */

/** The form's key among posted fields, if it is one. */
export function postedKey(fields: [string, string][]): string | undefined {
  const key = idempotencyKey(fields.find(([name]) => name === SUBMISSION_FIELD)?.[1]);
  return key.ok ? key.key : undefined;
}

const NOTICE_BY_STATUS: Record<number, NoticeKind> = {
  403: 'cross-site',
  409: 'already-sent',
  413: 'too-large',
  429: 'too-many',
  503: 'unavailable',
};

/** What the page says of a refused post, by its status: any other client error is a body that could not be read, any other fault a failure. */
function noticeFor(status: number): NoticeKind {
  return NOTICE_BY_STATUS[status] ?? (status < 500 ? 'unreadable' : 'failed');
}

/**
 * Every answer to the form posted without scripts is a page a browser shows:
 * the brand page in the route's language (errors, a notice, what was typed),
 * the 303 to its confirmation, or the portal's 404 page. Never JSON.
 */
export class PostAnswers {
  constructor(
    private readonly pages: PortalPages,
    private readonly seeded: SeededPages,
    private readonly sent: SentRequests,
    private readonly keys: SubmissionKeys,
    private readonly data: Pick<PortalData, 'forms'>,
  ) {}

  async page(reply: FastifyReply, status: number, route: BrandRoute, seed: Omit<FormSeed, 'brandId'>, key: string) {
    const html = await this.seeded.render(route, { brandId: route.brand.id, ...seed }, key);
    // Typed personal data: never kept by a cache.
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  }

  /** The form again, with the field errors found: under the post's key (nothing was stored), or a new one. */
  invalid(req: FastifyRequest, reply: FastifyReply, route: BrandRoute, seed: Omit<FormSeed, 'brandId'>, key: string | undefined) {
    return this.page(reply, 400, route, seed, key ?? this.keys.issue(req, reply));
  }

  confirm(req: FastifyRequest, reply: FastifyReply, route: BrandRoute, reference: string) {
    this.sent.remember(req, reply, route.brand.id, reference);
    return reply.code(303).header('location', brandPath(route.brand.id, route.locale, route.country)).send();
  }

  /** A post under a key a request is stored with: the same request again (a double click, a resend), or other content the key cannot carry. */
  repost(req: FastifyRequest, reply: FastifyReply, route: BrandRoute, earlier: EarlierRequest, data: RepairFormData) {
    const model = formOf(this.data, route.brand);
    if (isSameRequest(model, earlier.payload, shapeRequest(data, model, route.brand, route.locale))) {
      return this.confirm(req, reply, route, earlier.reference);
    }
    // The typed text stays, under a new key: sending it again is then a new request, on purpose.
    const notice: FormNotice = { kind: 'already-sent', reference: earlier.reference };
    return this.page(reply, 409, route, { formData: data, errors: {}, notice }, this.keys.issue(req, reply));
  }

  /** Refusals and faults: the route's page with a notice, keeping what the post typed if it is known to be the visitor's own. */
  error(error: FastifyError, req: FastifyRequest, reply: FastifyReply, post: Post | undefined) {
    const answer = errorAnswer(error, req);
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    // A host name the portal does not serve (plugins/host-pin.ts) has no page of its own here either.
    if (answer.status === 421) return reply.code(421).type('text/html; charset=utf-8').send(this.pages.notFound);
    if (!post || answer.status === 404) return reply.code(404).type('text/html; charset=utf-8').send(this.pages.notFound);
    const notice: FormNotice = { kind: noticeFor(answer.status) };
    // Nothing of a post that may be another site's is shown back, and its key is not the form's.
    if (!post.ours) return this.page(reply, answer.status, post.route, { formData: {}, errors: {}, notice }, this.keys.issue(req, reply));
    const formData = post.data ?? postedFormData(post.read.fields, formOf(this.data, post.route.brand).schema);
    return this.page(reply, answer.status, post.route, { formData, errors: {}, notice }, postedKey(post.read.fields) ?? this.keys.issue(req, reply));
  }
}
