import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { DeliveryError } from '../kinds';
import { fsyncPath } from '../../storage/fsync-path';

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

const TEMP_PREFIX = '.tmp-';

/** Where mails go as .eml files without SMTP (DATA_DIR/outbox), each named `<outbox id>-<kind>.eml`. */
export const MAIL_SPOOL_DIR = 'outbox';

function message(mail: MailEnvelope): Mail.Options {
  const { from, to, replyTo, subject, text, messageId, date, attachments, headers } = mail;
  return { from, to, replyTo, subject, text, messageId, date, attachments, headers };
}

/**
 * SMTP when a URL is configured; otherwise each mail becomes an .eml file
 * under `outboxDir` (development, and a record to inspect in tests).
 */
export function createMailTransport(
  smtp: { url: string; name: string; maxConnections: number },
  outboxDir: string,
): MailTransport {
  return smtp.url ? smtpTransport(smtp.url, smtp.name, smtp.maxConnections) : fileTransport(outboxDir);
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

/** Removes the .eml files of these outbox rows (erasure, retention); returns how many there were. */
export async function removeSpooledMails(spoolDir: string, outboxIds: readonly number[]): Promise<number> {
  if (outboxIds.length === 0) return 0;
  const ids = new Set(outboxIds.map(String));
  const names = await readdir(spoolDir).catch(() => [] as string[]);
  const paths = names.filter((n) => n.endsWith('.eml') && ids.has(n.split('-')[0])).map((n) => join(spoolDir, n));
  await Promise.all(paths.map((path) => rm(path, { force: true })));
  return paths.length;
}

/** Start-up: removes half-written .eml files a crash left behind (they hold personal data). */
export async function removeMailLeftovers(outboxDir: string): Promise<void> {
  const names = await readdir(outboxDir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(TEMP_PREFIX)).map((n) => rm(join(outboxDir, n), { force: true })));
}

function fileTransport(outboxDir: string): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let ready: Promise<unknown> | undefined;
  const prepare = () => (ready ??= mkdir(outboxDir, { recursive: true, mode: 0o700 }));
  return {
    deliver: async (mail) => {
      await prepare();
      const info = await transport.sendMail(message(mail));
      // Write, fsync, rename, fsync the folder: a reader never sees half a mail, and a crash loses none.
      const temp = join(outboxDir, `${TEMP_PREFIX}${randomUUID()}`);
      // One handle writes and syncs: reopening the file just to fsync it doubled the opens per mail.
      const file = await open(temp, 'wx', 0o600);
      try {
        try {
          await file.writeFile(info.message as Buffer);
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temp, join(outboxDir, `${mail.id}-${mail.kind}.eml`));
      } catch (error) {
        // A full disk: the attempt fails (and is retried), and leaves no empty or partial file behind.
        await rm(temp, { force: true });
        throw error;
      }
      await fsyncPath(outboxDir);
    },
    close: () => transport.close(),
  };
}
