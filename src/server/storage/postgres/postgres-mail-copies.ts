import { sql, type Kysely } from 'kysely';
import { CopiesOutOfReach, mailFileName, type MailCopies, type MailToKeep } from '../mail-copies';
import { MailFolder } from '../mail-folder';
import type { RowsBeside } from '../queries/privacy';
import type { Db } from '../queries/requests';
import { storedMessageIds } from '../queries/privacy';
import type { PostgresDatabase } from './schema';

/** Copies read at once (a desk mail carries its photos: a few MB each). */
const PAGE = 20;
/** Files of an earlier release's folder looked up at once. */
const FILES_PAGE = 500;

/** What an earlier release recorded in portal_settings for each folder it wrote .eml files to (`mail_files_dir:<folder>`). */
export const EARLIER_MAIL_FOLDER = 'mail_files_dir';

/** The rows beside the outbox's: a copy goes in the transaction that removes or rewrites its mail (shared-operations.ts). */
export const copyRows: { ofRequests: RowsBeside; ofMails: RowsBeside } = {
  ofRequests: async (tx, ids) =>
    Number((await sql`DELETE FROM mail_copies WHERE outbox_id IN (SELECT id FROM outbox WHERE request_id = ANY(${ids}::bigint[]))`.execute(tx)).numAffectedRows ?? 0),
  ofMails: async (tx, ids) => Number((await sql`DELETE FROM mail_copies WHERE outbox_id = ANY(${ids}::bigint[])`.execute(tx)).numAffectedRows ?? 0),
};

/**
 * PostgreSQL keeps each mail's copy in the database, beside its outbox row (which it goes with), so no
 * instance holds one where erasure run from another could miss it. Copies a server of an earlier release
 * wrote to its DATA_DIR/outbox are moved in at its start (tidy).
 */
export class PostgresMailCopies implements MailCopies {
  readonly place = 'table mail_copies';

  constructor(
    private readonly db: Db,
    /** DATA_DIR/outbox, absolute: where an earlier release wrote this instance's mails. */
    private readonly earlierFolder: string,
    /** The folders servers of an earlier release recorded (Storage.earlierMailFolders). */
    private readonly earlierFolders: () => Promise<string[]>,
  ) {}

  private get rows(): Kysely<PostgresDatabase> {
    return this.db as unknown as Kysely<PostgresDatabase>;
  }

  async keep(mail: MailToKeep, eml: Buffer): Promise<void> {
    // Kept only while the row says what the copy says; FOR SHARE waits for an erasure or rewrite of the row under
    // way, and then finds it gone or changed, so no copy outlives what it was made from.
    await sql`INSERT INTO mail_copies (outbox_id, message_id, written_at, eml)
      SELECT id, ${mail.messageId}, ${Date.now()}, ${eml} FROM outbox WHERE id = ${mail.id} AND subject = ${mail.subject} AND body = ${mail.text} FOR SHARE
      ON CONFLICT (outbox_id) DO UPDATE SET eml = EXCLUDED.eml, written_at = EXCLUDED.written_at`.execute(this.db);
  }

  async remove(messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    const { numDeletedRows } = await this.rows.deleteFrom('mail_copies').where('message_id', 'in', messageIds).executeTakeFirst();
    return Number(numDeletedRows);
  }

  /**
   * A folder a server of an earlier release wrote mails to (each instance its own, at the same path in each
   * container) is out of reach from any one place: that server moves them in when it starts with this release.
   */
  async check(): Promise<void> {
    const folders = await this.earlierFolders();
    if (folders.length > 0) throw new CopiesOutOfReach(folders.map((folder) => ({ kind: 'earlier-release', folder })));
  }

  async sweep(): Promise<number> {
    return 0;
  }

  async *list(): AsyncIterable<{ name: string; eml: Buffer }> {
    for (let after = 0; ; ) {
      const page = await this.rows.selectFrom('mail_copies').select(['outbox_id', 'message_id', 'eml']).where('outbox_id', '>', after).orderBy('outbox_id').limit(PAGE).execute();
      for (const copy of page) yield { name: mailFileName(copy.message_id), eml: copy.eml };
      if (page.length < PAGE) return;
      after = page[page.length - 1].outbox_id;
    }
  }

  async tidy(): Promise<{ moved: number; removed: number }> {
    const folder = new MailFolder(this.earlierFolder);
    let removed = await folder.removeLeftovers();
    let moved = 0;
    const files = [...(await folder.mails())];
    for (let i = 0; i < files.length; i += FILES_PAGE) {
      const page = files.slice(i, i + FILES_PAGE);
      const stored = await storedMessageIds(this.db, page.map(([id]) => id));
      for (const [id, name] of page) {
        // A file whose mail is gone (erased, expired) goes; the others move into the database first.
        if (stored.has(id) && (await this.adopt(id, await folder.read(name)))) moved++;
        else removed++;
        await folder.removeName(name);
      }
    }
    await folder.removeIfEmpty();
    // The folder's record stays: other instances recorded the same path (each its own volume, mounted at the
    // same place) and may not have started with this release yet. Staff forget it once all have (retire-mail-folder).
    return { moved, removed };
  }

  /** Keeps a copy an earlier release wrote as a file, for the row of that message id; false when it has none by now. */
  private async adopt(messageId: string, eml: Buffer): Promise<boolean> {
    const derived = /^outbox-(\d+)$/.exec(messageId)?.[1];
    const { numAffectedRows } = await sql`INSERT INTO mail_copies (outbox_id, message_id, written_at, eml)
      SELECT id, ${messageId}, ${Date.now()}, ${eml} FROM outbox
      WHERE message_id = ${messageId} OR (message_id IS NULL AND id = ${derived === undefined ? null : Number(derived)}) LIMIT 1
      ON CONFLICT (outbox_id) DO NOTHING`.execute(this.db);
    return Number(numAffectedRows ?? 0) > 0;
  }
}
