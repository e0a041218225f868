import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the client said in MAIL FROM and RCPT TO: where the mail really goes, whatever its headers say. */
export interface SmtpEnvelope {
  from: string;
  to: string[];
  /** Whether MAIL FROM asked for SMTPUTF8 (RFC 6531), which a non-ASCII mailbox name needs. */
  smtpUtf8: boolean;
  /** The message's size as sent (after DATA), in bytes. */
  bytes: number;
}

export interface SmtpSink {
  url: string;
  mails: ParsedMail[];
  /** The envelope a received mail came in (smtp-server shows punycode domains decoded). */
  envelopeOf(mail: ParsedMail): SmtpEnvelope;
  /** Every command clients sent, as sent (`RCPT TO:<a@xn--…>`), sessions interleaved. */
  commands: string[];
  /** What the client said in EHLO/HELO, per session. */
  greetings: string[];
  /** Resolves with the first mail `match` accepts (already received or still to come). */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** From now on MAIL FROM is never answered: a server that stalls mid-session, so the sender's attempts hang. */
  hold(): void;
  /** RCPT TO this address answers `550 <address> unknown user`, quoting it as real servers do. */
  refuse(address: string): void;
  /** Takes mail for an address refused before. */
  accept(address: string): void;
  /** While on, every connection is answered `421 Service not available` and closed, as a relay in maintenance does. */
  unavailable(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process; every accepted mail is parsed with mailparser. `replyAfterMs`:
 * how long it takes over each message before it answers 250, as a real relay does (100–500 ms); the
 * message counts as received once it is all there, answered or not (a client gone before the answer
 * sends it again, and the relay delivers both).
 */
export async function startSmtpSink(port = 0, { replyAfterMs = 0 }: { replyAfterMs?: number } = {}): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const envelopes = new WeakMap<ParsedMail, SmtpEnvelope>();
  const greetings: string[] = [];
  const commands: string[] = [];
  const waiters: (() => void)[] = [];
  let held = false;
  let closed = false;
  const refused = new Set<string>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // smtp-server logs each command at debug level, before it decodes anything: the only view of the wire it gives.
    logger: {
      level: () => {},
      trace: () => {},
      debug: (meta: { tnx?: string }, _format: string, line: string) => void (meta.tnx === 'command' && commands.push(line)),
      info: () => {},
      warn: () => {},
      error: () => {},
      fatal: () => {},
    } as never,
    onConnect(_session, callback) {
      if (!closed) return callback();
      callback(Object.assign(new Error('Service not available, closing transmission channel'), { responseCode: 421 }));
    },
    onMailFrom(_address, session, callback) {
      greetings.push(session.hostNameAppearsAs);
      if (!held) callback();
    },
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address)) return callback();
      callback(Object.assign(new Error(`<${address.address}> unknown user`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const { mailFrom, rcptTo, smtpUtf8 } = session.envelope;
      const envelope = { from: mailFrom ? mailFrom.address : '', to: rcptTo.map((r) => r.address), smtpUtf8: smtpUtf8 === true, bytes: 0 };
      stream.on('data', (chunk: Buffer) => (envelope.bytes += chunk.length));
      // A message cut off by its client (killed mid-DATA) is not a mail received, as for any real server.
      let complete = false;
      stream.on('end', () => (complete = true));
      stream.on('error', () => {});
      simpleParser(stream).then(
        (mail) => {
          if (!complete) return callback(new Error('message cut off'));
          envelopes.set(mail, envelope);
          mails.push(mail);
          for (const wake of waiters.splice(0)) wake();
          if (replyAfterMs > 0) setTimeout(callback, replyAfterMs);
          else callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A client killed mid-session (kill -9 of the portal) resets its connection: nothing to report.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    envelopeOf: (mail) => {
      const envelope = envelopes.get(mail);
      if (!envelope) throw new Error('not a mail this sink received');
      return envelope;
    },
    greetings,
    commands,
    async waitFor(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching mail among ${mails.length} received`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    hold: () => {
      held = true;
    },
    refuse: (address) => void refused.add(address),
    accept: (address) => void refused.delete(address),
    unavailable: (on) => {
      closed = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
