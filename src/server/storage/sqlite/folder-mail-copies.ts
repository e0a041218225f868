import { rm } from 'node:fs/promises';
import { CopiesOutOfReach, type MailCopies, type MailToKeep } from '../mail-copies';
import type { MailFolder } from '../mail-folder';
import { deliveryHolds, storedMessageIds } from '../queries/privacy';
import type { Db } from '../queries/requests';

/** Message ids asked after at once when looking for copies whose mail is gone. */
const PAGE = 500;

/** SQLite keeps mails as .eml files in DATA_DIR/outbox, beside its database: whoever opens the database has them. */
export class FolderMailCopies implements MailCopies {
  readonly place: string;

  constructor(
    private readonly db: Db,
    private readonly folder: MailFolder,
  ) {
    this.place = `.eml files in ${folder.dir}`;
  }

  async keep(mail: MailToKeep, eml: Buffer): Promise<void> {
    const path = await this.folder.write(mail.messageId, eml);
    // An erasure that removed the row after this mail was taken looked for its file before it was here:
    // asked only now, the row's absence is seen and the file goes (erasure removes rows, then files).
    if (!(await deliveryHolds(this.db, mail.id, mail.subject, mail.text))) await rm(path, { force: true });
  }

  remove(messageIds: readonly string[]): Promise<number> {
    return this.folder.remove(messageIds);
  }

  async check(): Promise<void> {
    const out = await this.folder.reach();
    if (out) throw new CopiesOutOfReach([out]);
  }

  list(): AsyncIterable<{ name: string; eml: Buffer }> {
    return this.folder.list();
  }

  async sweep(): Promise<number> {
    const files = [...(await this.folder.mails())];
    let removed = 0;
    for (let i = 0; i < files.length; i += PAGE) {
      const page = files.slice(i, i + PAGE);
      const stored = await storedMessageIds(this.db, page.map(([id]) => id));
      for (const [id, name] of page) if (!stored.has(id) && (await this.folder.removeName(name))) removed++;
    }
    return removed;
  }

  async tidy(): Promise<{ moved: number; removed: number }> {
    return { moved: 0, removed: await this.folder.removeLeftovers() };
  }
}
