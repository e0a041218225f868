import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAIL_SPOOL_DIR } from '../../server/delivery/mail/transport';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';

/**
 * The folders holding the servers' .eml files: those the servers recorded in
 * the database at their start (without SMTP_URL; each instance its own),
 * else this command's own DATA_DIR/outbox. When one recorded is out of reach
 * (the command runs on another machine, or without that server's DATA_DIR)
 * it refuses before anything is erased: rows gone while their mail files
 * stay could never be found again.
 */
export async function mailFolders(storage: Pick<Storage, 'mailFilesDirs'>, ownDataDir: string): Promise<string[]> {
  const recorded = await storage.mailFilesDirs();
  if (recorded.length === 0) return [join(ownDataDir, MAIL_SPOOL_DIR)];
  const away = recorded.filter((dir) => !statSync(dirname(dir), { throwIfNoEntry: false })?.isDirectory());
  if (away.length > 0) {
    throw new CommandError(
      `the server writes mail files to ${away.join(', ')}, which cannot be reached from here: nothing erased; run this where every server's DATA_DIR is`,
    );
  }
  return recorded;
}
