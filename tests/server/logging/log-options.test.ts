import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { logOptions } from '../../../src/server/logging/log-options';
import { scrubText } from '../../../src/server/logging/scrub-text';
import { personalFields } from '../../../src/core/form-model';
import { portal } from '../../support/portal-data';

const personal = [...portal.forms.values()].flatMap(personalFields);
import { captureLogs } from '../log-capture';

/** A Fastify logger with the server's options, writing where the test reads. */
function logger() {
  const { logger: settings, lines } = captureLogs();
  const app = Fastify({ logger: logOptions(settings, personal) });
  return { log: app.log, lines };
}

describe('the server log options', () => {
  it('redact personal fields by name in whatever object is logged', () => {
    const { log, lines } = logger();
    const request = { last_name: 'Zwaantjes', client_email: 'anna@example.org', phone_number: '0612345678', brand: 'Teka', type: 'P90' };
    log.info({ request, notification: 'dealer@example.net' }, 'a mistake someone may make one day');
    expect(lines[0]).toMatchObject({
      request: { last_name: '[redacted]', client_email: '[redacted]', phone_number: '[redacted]', brand: 'Teka', type: 'P90' },
      notification: '[redacted]',
    });
  });

  it('log an error by its kind, code and scrubbed text, causes too, and leave out fields that quote data', () => {
    const { log, lines } = logger();
    const smtp = Object.assign(new Error('Can\'t send mail - all recipients were rejected: 550 <Anna.Z+1@Müller.be> unknown user'), {
      code: 'EENVELOPE',
      responseCode: 550,
      response: '550 <Anna.Z+1@Müller.be> unknown user',
      cause: new Error('RCPT TO:<Anna.Z+1@Müller.be> refused'),
    });
    const database = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505', detail: 'Key (email)=(anna@example.org) already exists.' });
    log.error({ err: smtp }, 'delivery failed');
    log.error({ err: database }, 'store failed');
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/anna|müller/i);
    expect(lines[0].err).toMatchObject({ type: 'Error', code: 'EENVELOPE', responseCode: 550, message: expect.stringContaining('550 <[email]> unknown user'), cause: { message: 'RCPT TO:<[email]> refused' } });
    expect(lines[1].err).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint' });
  });

  it('scrub error texts given as strings, refusal reasons and message texts', () => {
    const { log, lines } = logger();
    log.warn({ err: '550 <jan@example.be> mailbox full', reason: 'see /api/photos/x.jpg?expires=1&signature=abc' }, 'for jan@example.be');
    expect(lines[0]).toMatchObject({ err: '550 <[email]> mailbox full', reason: 'see /api/photos/x.jpg?expires=[redacted]&signature=[redacted]', msg: 'for [email]' });
  });
});

describe('scrubText', () => {
  it('takes out the text a JSON parser quotes', () => {
    let message = '';
    try {
      JSON.parse('{"last_name": "Zwaantjes", "city": Utrecht}');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('Utrecht');
    expect(scrubText(message)).toBe('Unexpected token \'U\', "[input]" is not valid JSON');
  });

  it('keeps what is no personal data: package paths in stack traces, plain words', () => {
    expect(scrubText('at run (/srv/node_modules/@fastify/multipart/index.js:10:5)')).toBe('at run (/srv/node_modules/@fastify/multipart/index.js:10:5)');
    expect(scrubText('receiver answered 410')).toBe('receiver answered 410');
  });
});
