import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';

/**
 * `mails --out FOLDER`: the mails a server without SMTP_URL kept, written as .eml files to read in a mail
 * program. What is written there is the staff's copy: erase does not reach it.
 */
export async function writeMails(storage: Pick<Storage, 'mailCopies'>, out: string): Promise<string> {
  await mkdir(out, { recursive: true, mode: 0o700 });
  let written = 0;
  for await (const { name, eml } of storage.mailCopies.list()) {
    await writeFile(join(out, name), eml, { mode: 0o600 });
    written++;
  }
  return `Wrote ${written} mail${written === 1 ? '' : 's'} kept without SMTP (${storage.mailCopies.place}) to ${out}.`;
}

/**
 * `retire-mail-folder FOLDER`: forgets a folder servers of an earlier release wrote mails to, once each
 * of them runs this release (which moved its mails into the database at start) or is retired with its files.
 */
export async function retireMailFolder(storage: Pick<Storage, 'forgetMailFolder' | 'earlierMailFolders' | 'description'>, folder: string): Promise<string> {
  if (await storage.forgetMailFolder(folder)) return `Forgot ${folder}: erase no longer waits for mails written there by servers of an earlier release.`;
  const recorded = await storage.earlierMailFolders();
  const which = recorded.length > 0 ? `those recorded are: ${recorded.join(', ')}` : 'none is recorded';
  throw new CommandError(`${folder} is not a folder servers of an earlier release wrote mails to in ${storage.description}; ${which}`);
}
