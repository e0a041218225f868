import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { brandPath, matchBrandRoute, NEW_REQUEST_QUERY, type BrandRoute } from '../../core/brands';
import type { Brand } from '../../core/types';
import { withSubmissionKey } from '../no-script/submission-key';
import type { PortalPages } from '../portal-pages';

export interface PortalRoutesOptions {
  webRoot: string;
  brands: ReadonlyMap<string, Brand>;
  /** The portal's languages: a brand's page in one it does not offer is 404. */
  languages: ReadonlySet<string>;
  pages: PortalPages;
  /** The confirmation page, when this browser sent the brand's form without scripts (routes/no-script-form.ts). */
  confirmation(req: FastifyRequest, route: BrandRoute): Promise<string | undefined>;
  /** The confirmation's "new request" link was followed: the browser's sent request is forgotten. */
  forgetConfirmation(req: FastifyRequest, reply: FastifyReply, route: BrandRoute): void;
  /** A new key for the form of a page about to be sent (no-script/submission-key.ts). */
  submissionKey(req: FastifyRequest, reply: FastifyReply): string;
}

function sendHtml(reply: FastifyReply, status: number, html: string, cacheControl = 'no-cache') {
  // HTML names the hashed assets of the current build, so it must be revalidated.
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', cacheControl).send(html);
}

/**
 * The built portal: hashed assets cached for good, brand routes with their
 * page (200), every other path the portal's 404 page with status 404.
 * Only WEB_ROOT/assets is served from disk; DATA_DIR never is.
 */
export const portalRoutes: FastifyPluginAsync<PortalRoutesOptions> = async (
  app,
  { webRoot, brands, languages, pages, confirmation, forgetConfirmation, submissionKey },
) => {
  // The pages carry a per-view key, so they are compressed as sent (quickly); assets were compressed at build.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(fastifyStatic, {
    root: join(webRoot, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    // The build wrote .br and .gz copies (src/cli/compress-assets.ts): served by Accept-Encoding.
    preCompressed: true,
    index: false,
    dotfiles: 'deny',
    decorateReply: false,
  });

  // API and asset misses get a JSON 404; a page address gets the portal's 404 page.
  const notFound = (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    if (path.startsWith('/api/') || path.startsWith('/assets/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.code(404).send({ error: 'Not found.' });
    }
    return sendHtml(reply, 404, pages.notFound);
  };

  app.get<{ Querystring: Record<string, unknown> }>('/:brand/:locale/:country', async (req, reply) => {
    const route = matchBrandRoute(req.url.split('?')[0], brands, languages);
    if (!route) return notFound(req, reply);
    if (Object.hasOwn(req.query, NEW_REQUEST_QUERY)) {
      // The confirmation's link: forget the request sent, then the page's own address, so a reload stays on the form.
      forgetConfirmation(req, reply, route);
      return reply.header('cache-control', 'no-store').redirect(brandPath(route.brand.id, route.locale, route.country), 303);
    }
    const confirmed = await confirmation(req, route);
    // The confirmation names the customer's address: never kept by a cache.
    if (confirmed) return sendHtml(reply, 200, confirmed, 'no-store');
    return sendHtml(reply, 200, withSubmissionKey(pages.brandPage(route), submissionKey(req, reply)));
  });

  app.setNotFoundHandler(async (req, reply) => notFound(req, reply));
};
