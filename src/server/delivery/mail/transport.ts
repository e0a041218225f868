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

/**
 * Where mails go as .eml files without SMTP (DATA_DIR/outbox), each named after its stored message id
 * (mailFileName): ids change when rows move to PostgreSQL, message ids do not.
 */
export const MAIL_SPOOL_DIR = 'outbox';

/** Files of the earlier naming, `<outbox id>-<kind>.eml`: found by the Message-ID they hold (renameLegacyMails). */
const LEGACY_NAME = /^\d+-[a-z-]+\.eml$/;

/** A mail's file name from its stored message id (left of the @); encoded, so no id names a path. */
export const mailFileName = (messageId: string) => `${encodeURIComponent(messageId)}.eml`;

/** The stored message id a file is named after; undefined: not a mail's file. */
function messageIdOfName(name: string): string | undefined {
  if (!name.endsWith('.eml')) return undefined;
  try {
    return decodeURIComponent(name.slice(0, -4));
  } catch {
    return undefined;
  }
}

/** The stored message id inside a Message-ID header (`<id@domain>`). */
const storedId = (header: string) => /^<(.+)@[^@]*>$/.exec(header)?.[1] ?? header;

/** Whether the row a mail was written from still holds what it says (not erased or rewritten meanwhile). */
export type StillHeld = (mail: MailEnvelope) => Promise<boolean>;

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
  stillHeld: StillHeld,
): MailTransport {
  return smtp.url ? smtpTransport(smtp.url, smtp.name, smtp.maxConnections) : fileTransport(outboxDir, stillHeld);
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

/**
 * Removes the .eml files of these mails (by stored message id) from each folder (erasure, retention),
 * files of the earlier naming included; returns how many it removed (not those gone already).
 */
export async function removeSpooledMails(spoolDirs: readonly string[], messageIds: readonly string[]): Promise<number> {
  if (messageIds.length === 0) return 0;
  const wanted = new Set(messageIds);
  let removed = 0;
  for (const dir of spoolDirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const id = LEGACY_NAME.test(name) ? await legacyMessageId(join(dir, name)) : messageIdOfName(name);
      if (id !== undefined && wanted.has(id) && (await removeFile(join(dir, name)))) removed++;
    }
  }
  return removed;
}

/** Removes a file; false when it was gone already (another erasure, or its writer, removed it). */
async function removeFile(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The stored message id in a file of the earlier naming: its Message-ID header, among the first lines. */
async function legacyMessageId(path: string): Promise<string | undefined> {
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(16_384) });
    const head = buffer.subarray(0, bytesRead).toString('utf8').split('\n\n')[0];
    const header = /^Message-ID:\s*(\S+)/im.exec(head)?.[1];
    return header === undefined ? undefined : storedId(header);
  } finally {
    await file.close();
  }
}

/**
 * Gives files of the earlier naming (`<outbox id>-<kind>.eml`) their message id's name, which stays
 * right once the rows move to PostgreSQL and get new ids (migrate-to-postgres); returns how many.
 */
export async function renameLegacyMails(spoolDir: string): Promise<number> {
  const names = (await readdir(spoolDir).catch(() => [] as string[])).filter((n) => LEGACY_NAME.test(n));
  let renamed = 0;
  for (const name of names) {
    const id = await legacyMessageId(join(spoolDir, name));
    if (id === undefined) continue;
    await rename(join(spoolDir, name), join(spoolDir, mailFileName(id)));
    renamed++;
  }
  if (renamed > 0) await fsyncPath(spoolDir);
  return renamed;
}

/** Start-up: removes half-written .eml files a crash left behind (they hold personal data). */
export async function removeMailLeftovers(outboxDir: string): Promise<void> {
  const names = await readdir(outboxDir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(TEMP_PREFIX)).map((n) => rm(join(outboxDir, n), { force: true })));
}

function fileTransport(outboxDir: string, stillHeld: StillHeld): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let ready: Promise<unknown> | undefined;
  const prepare = () => (ready ??= mkdir(outboxDir, { recursive: true, mode: 0o700 }));
  return {
    deliver: async (mail) => {
      await prepare();
      const info = await transport.sendMail(message(mail));
      // Write, fsync, rename, fsync the folder: a reader never sees half a mail, and a crash loses none.
      const temp = join(outboxDir, `${TEMP_PREFIX}${randomUUID()}`);
      const path = join(outboxDir, mailFileName(storedId(mail.messageId)));
      // One handle writes and syncs: reopening the file just to fsync it doubled the opens per mail.
      const file = await open(temp, 'wx', 0o600);
      try {
        try {
          await file.writeFile(info.message as Buffer);
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temp, path);
      } catch (error) {
        // A full disk: the attempt fails (and is retried), and leaves no empty or partial file behind.
        await rm(temp, { force: true });
        throw error;
      }
      await fsyncPath(outboxDir);
      // An erasure that removed the row after this mail was taken looked for its file before it was here:
      // asked only now, the row's absence is seen and the file goes (erasure removes rows, then files).
      if (!(await stillHeld(mail))) await rm(path, { force: true });
    },
    close: () => transport.close(),
  };
}
