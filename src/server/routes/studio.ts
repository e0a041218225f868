import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The studio's policy: its own files, as the portal's pages; the frame of its preview (its own page
 * from the same folder); script evaluation, because it compiles the forms being edited as validate and
 * the page do (ajv generates code); connections to any https origin, for a pull request to the brand
 * owner's Git host, and to its own blob: downloads (the change it made, read back as saved). It reads
 * no stored request and holds nothing personal.
 */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self' blob: https:",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The brand studio (STUDIO=on): the static files `npm run build` writes to WEB_ROOT/studio, under
 * /studio/. It changes nothing on the server: every edit stays in the brand owner's browser.
 */
export const studioRoutes: FastifyPluginAsync<{ webRoot: string }> = async (app, { webRoot }) => {
  // After the portal's own headers (plugins/security-headers.ts): the studio's policy, and its preview may be framed by itself.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('content-security-policy', STUDIO_CSP).header('x-frame-options', 'SAMEORIGIN');
    done();
  });
  app.get('/studio', (_req, reply) => reply.redirect('/studio/', 301));
  await app.register(fastifyStatic, {
    root: join(webRoot, 'studio'),
    prefix: '/studio/',
    preCompressed: true,
    index: ['index.html'],
    dotfiles: 'deny',
    decorateReply: false,
    // Its pages and project.json name the build of the day: asked again each time; the hashed assets are kept.
    setHeaders: (reply, path) => void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
};
