import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  mails: ParsedMail[];
  /** What the client said in EHLO/HELO, per session. */
  greetings: string[];
  /** Resolves with the first mail `match` accepts (already received or still to come). */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** From now on MAIL FROM is never answered: a server that stalls mid-session, so the sender's attempts hang. */
  hold(): void;
  close(): Promise<void>;
}

/** A real SMTP server in the test process; every accepted mail is parsed with mailparser. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const greetings: string[] = [];
  const waiters: (() => void)[] = [];
  let held = false;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onMailFrom(_address, session, callback) {
      greetings.push(session.hostNameAppearsAs);
      if (!held) callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    greetings,
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
