import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

export interface SecurityOptions {
  addressLookupUrl: string;
  apiBase: string;
  corsOrigins: string[];
}

/** The portal's Content-Security-Policy: its own files only, plus the address service (and API host) for fetch. */
export function contentSecurityPolicy({ addressLookupUrl, apiBase }: Pick<SecurityOptions, 'addressLookupUrl' | 'apiBase'>) {
  const connect = ["'self'", new URL(addressLookupUrl).origin, ...(apiBase ? [apiBase] : [])];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'connect-src': [...new Set(connect)],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Helmet's headers (nosniff, frame and referrer policies, HSTS) with a
 * strict CSP, and CORS only for the configured origins (none by default:
 * the portal and the API share one origin).
 */
export async function installSecurityHeaders(app: FastifyInstance, options: SecurityOptions): Promise<void> {
  const headers = await helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  if (options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins,
      methods: ['POST'],
      allowedHeaders: ['Content-Type', 'Accept', 'Idempotency-Key', 'X-Portal-Locale'],
      maxAge: 600,
    });
  }
}

/**
 * The headers helmet sets, computed once. @fastify/helmet rebuilds helmet's
 * middleware (parsing the whole CSP) on every request, a tenth of a submit's
 * CPU; without nonces the headers never change, so they are asked of helmet
 * once, on a throwaway instance, and copied onto each reply.
 */
async function helmetHeaders(options: Parameters<typeof helmet>[1]): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    // In the handler only helmet's onRequest hook has set headers yet.
    probe.get('/', (_req, reply) => reply.send(reply.getHeaders()));
    return (await probe.inject('/')).json();
  } finally {
    await probe.close();
  }
}
