import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    frameguard: { action: 'deny' },
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
