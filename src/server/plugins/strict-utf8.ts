import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';
import type { JsonBodyCheck } from '../validation/swollen-bodies';

/**
 * JSON bodies must be valid UTF-8: Fastify's own parser decodes bytes that
 * are not with U+FFFD, and the request was then stored with characters the
 * customer never typed. Such a body is refused with 400; a valid one goes to
 * Fastify's parser as before (its prototype-poisoning checks included), once
 * `check` (if given) has not refused its text: a refusal costs no parse.
 */
export function installStrictUtf8Json(app: FastifyInstance, check?: JsonBodyCheck): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = decoder.decode(body);
    } catch {
      return done(new HttpError(400, 'The request body is not valid UTF-8 text.'), undefined);
    }
    const refusal = check?.(text, req.headers);
    if (refusal) return done(refusal, undefined);
    parseJson(req, text, done);
  });
}
