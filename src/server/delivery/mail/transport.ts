import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { DeliveryError } from '../kinds';
import { storedId, type MailCopies } from '../../storage/mail-copies';

export interface MailEnvelope {
  id: number;
  kind: string;
  from: { name: string; address: string };
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  /** `<id@sender-domain>`, the same on every attempt. */
  messageId: string;
  /** The Date header as written (RFC 5322), on the portal's clock; none: the moment of sending in UTC. */
  date?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Extra headers: Content-Language, X-Repair-Reference for the desk's mail rules. */
  headers?: Record<string, string>;
}

/** Delivers one mail or throws (a DeliveryError marked permanent when the server refused it for good). */
export type Deliver = (mail: MailEnvelope) => Promise<void>;

export interface MailTransport {
  deliver: Deliver;
  close(): void;
}

function message(mail: MailEnvelope): Mail.Options {
  const { from, to, replyTo, subject, text, messageId, date, attachments, headers } = mail;
  return { from, to, replyTo, subject, text, messageId, date, attachments, headers };
}

/**
 * SMTP when a URL is configured; otherwise each mail is kept as it would have gone out (an .eml: storage's
 * MailCopies), for development, a record to inspect, and tests.
 */
export function createMailTransport(smtp: { url: string; name: string; maxConnections: number }, copies: Pick<MailCopies, 'keep'>): MailTransport {
  return smtp.url ? smtpTransport(smtp.url, smtp.name, smtp.maxConnections) : copyTransport(copies);
}

function smtpTransport(smtpUrl: string, name: string, maxConnections: number): MailTransport {
  // A pool keeps a few connections open instead of one per mail. Nodemailer's own timeouts
  // (2 min to connect, 10 min of silence) would let a stuck server hold every slot for long.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections,
    name,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    deliver: async (mail) => {
      try {
        await transport.sendMail(message(mail));
      } catch (error) {
        // 5xx is the server's final word (no such mailbox, refused); anything else may pass later.
        const code = (error as { responseCode?: number }).responseCode ?? 0;
        throw new DeliveryError(error instanceof Error ? error.message : String(error), code >= 500 && code < 600);
      }
    },
    close: () => transport.close(),
  };
}

function copyTransport(copies: Pick<MailCopies, 'keep'>): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    deliver: async (mail) => {
      const info = await transport.sendMail(message(mail));
      await copies.keep({ id: mail.id, messageId: storedId(mail.messageId), subject: mail.subject, text: mail.text }, info.message as Buffer);
    },
    close: () => transport.close(),
  };
}
