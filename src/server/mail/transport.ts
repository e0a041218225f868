import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailEnvelope {
  id: number;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** Delivers one mail or throws. */
export type Deliver = (mail: MailEnvelope) => Promise<void>;

/**
 * SMTP when a URL is configured; otherwise each mail becomes an .eml file
 * under `outboxDir` (development, and a record to inspect in tests).
 */
export function createDeliver(smtpUrl: string, outboxDir: string): { deliver: Deliver; close: () => void } {
  if (smtpUrl) {
    // A pool keeps a few connections open instead of one per mail of a batch.
    const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 3 });
    return {
      deliver: async (mail) => {
        await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let ready: Promise<unknown> | undefined;
  return {
    deliver: async (mail) => {
      ready ??= mkdir(outboxDir, { recursive: true, mode: 0o700 });
      await ready;
      const info = await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
      // Write then rename, so a reader of the folder never sees half a mail.
      const temp = join(outboxDir, `.tmp-${randomUUID()}`);
      await writeFile(temp, info.message as Buffer, { flag: 'wx', mode: 0o600 });
      await rename(temp, join(outboxDir, `${mail.id}-${mail.kind}.eml`));
    },
    close: () => transport.close(),
  };
}
