import { eraseSubject } from '../../server/privacy/erasure';
import type { FormRevisions } from '../../server/revisions/form-revisions';
import { CopiesOutOfReach, type PlaceOutOfReach } from '../../server/storage/mail-copies';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';
import { eraseReport } from './erase-report';

/** One line per place erase cannot reach: what it is, and the command that fixes it. */
export function outOfReach(place: PlaceOutOfReach): string {
  if (place.kind === 'unreadable') {
    return (
      `cannot read the mail folder ${place.folder} (${place.cause}): nothing erased; give the user running this command ` +
      `read and write access to it, as the server has (chown -R <the server's user> ${place.folder}; chmod 700 ${place.folder}), then run erase again`
    );
  }
  return (
    `servers of an earlier release wrote mails to ${place.folder} (each instance to its own, at that path in its own container or machine), ` +
    'which erase cannot reach from one place: nothing erased; start every server that wrote there with this release (at start it moves ' +
    `its mails into the database), or retire it for good with its files, then run \`npm run requests -- retire-mail-folder ${place.folder}\` and erase again`
  );
}

/**
 * `erase --email`: erases the person, then reports what went, per table. Exit 0 only when every copy is
 * gone: where one may be out of reach, nothing is erased and each such place is named with its fix.
 */
export async function erase(storage: Storage, forms: FormRevisions, address: string): Promise<string[]> {
  try {
    const { counts, reclaimed } = await eraseSubject({ storage, forms }, address);
    const lines = eraseReport(counts, storage.description, storage.mailCopies.place);
    if (reclaimed.done) return lines;
    // The rows are gone: that is the erasure. What waits is rewriting the files that held them.
    return [...lines, `Erased; space not yet reclaimed: ${reclaimed.reason}. The database's files still hold the removed rows' bytes until erase runs again (any address will do) once that is over.`];
  } catch (error) {
    if (error instanceof CopiesOutOfReach) throw new CommandError(error.places.map(outOfReach).join('\n'));
    throw error;
  }
}
