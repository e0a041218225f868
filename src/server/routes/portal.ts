import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { matchBrandRoute } from '../../core/brands';
import type { Brand } from '../../core/types';
import type { PortalPages } from '../portal-pages';

export interface PortalRoutesOptions {
  webRoot: string;
  brands: ReadonlyMap<string, Brand>;
  pages: PortalPages;
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  // HTML names the hashed assets of the current build, so it must be revalidated.
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
}

/**
 * The built portal: hashed assets cached for good, brand routes with their
 * page (200), every other path the portal's 404 page with status 404.
 * Only WEB_ROOT/assets is served from disk; DATA_DIR never is.
 */
export const portalRoutes: FastifyPluginAsync<PortalRoutesOptions> = async (app, { webRoot, brands, pages }) => {
  await app.register(fastifyStatic, {
    root: join(webRoot, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
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

  app.get('/:brand/:locale/:country', async (req, reply) => {
    const route = matchBrandRoute(req.url.split('?')[0], brands);
    return route ? sendHtml(reply, 200, pages.brandPage(route)) : notFound(req, reply);
  });

  app.setNotFoundHandler(async (req, reply) => notFound(req, reply));
};
