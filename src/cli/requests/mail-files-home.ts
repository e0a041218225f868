import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';

/**
 * The DATA_DIR whose outbox/ holds the servers' .eml files: the one a server
 * recorded in the database at its start (without SMTP_URL), else this
 * command's own. When the recorded one is out of reach (the command runs on
 * another machine, or without the server's DATA_DIR) it refuses before
 * anything is erased: rows gone while their mail files stay could never be
 * found again.
 */
export async function mailFilesHome(storage: Pick<Storage, 'mailFilesDir'>, ownDataDir: string): Promise<string> {
  const recorded = await storage.mailFilesDir();
  if (recorded === undefined) return ownDataDir;
  const home = dirname(recorded);
  if (!statSync(home, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CommandError(`the server writes mail files to ${recorded}, which cannot be reached from here: nothing erased; run this where that folder is (the server's DATA_DIR)`);
  }
  return home;
}
