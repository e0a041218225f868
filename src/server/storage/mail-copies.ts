/**
 * The mails a server without SMTP_URL keeps instead of sending them (.eml as
 * they would have gone out), wherever the backend keeps them: SQLite in
 * DATA_DIR/outbox beside its database, PostgreSQL in the database itself
 * (table mail_copies), so that no instance holds a person's mail in a folder
 * of its own that erasure run elsewhere could miss.
 */
export interface MailCopies {
  /** Where they are, for people: `.eml files in /srv/data/outbox`, `table mail_copies`. */
  readonly place: string;
  /**
   * Keeps a mail's copy, unless its row was erased or rewritten (by an erasure) meanwhile: then no copy
   * stays (a copy whose row is gone could never be found again).
   */
  keep(mail: MailToKeep, eml: Buffer): Promise<void>;
  /** Removes the copies of these mails (by stored message id); how many it removed. */
  remove(messageIds: readonly string[]): Promise<number>;
  /**
   * Throws a CopiesOutOfReach naming every place copies may be that this process cannot reach (a folder
   * it may not read, one a server of an earlier release wrote to), so erasure can stop before it starts.
   */
  check(): Promise<void>;
  /**
   * Removes copies whose mail is no longer stored (a removal that failed part way, the folder then out of
   * reach); how many. PostgreSQL's copies go with their rows: it has none.
   */
  sweep(): Promise<number>;
  /** Every kept copy: `<message id>.eml` and its bytes (npm run requests -- mails). */
  list(): AsyncIterable<{ name: string; eml: Buffer }>;
  /**
   * Start-up: removes half-written copies a crash left; PostgreSQL moves the .eml files an earlier release
   * wrote to DATA_DIR/outbox into the database (those whose mail is still stored) and removes the rest
   * and the folder; how many it moved and removed.
   */
  tidy(): Promise<{ moved: number; removed: number }>;
}

export interface MailToKeep {
  /** The outbox row's id. */
  id: number;
  /** The stored message id (left of the @). */
  messageId: string;
  /** What the row says: a copy is kept only while the row still says it. */
  subject: string;
  text: string;
}

/** A place where copies may be that cannot be reached from here, and why. */
export interface PlaceOutOfReach {
  /** `unreadable`: a folder this process may not read or change; `earlier-release`: a folder a server of an earlier release recorded. */
  kind: 'unreadable' | 'earlier-release';
  folder: string;
  /** The system's word for it (EACCES: permission denied), for an unreadable folder. */
  cause?: string;
}

export class CopiesOutOfReach extends Error {
  constructor(readonly places: readonly PlaceOutOfReach[]) {
    super(`mail copies out of reach: ${places.map((p) => p.folder).join(', ')}`);
  }
}

/** The folder of DATA_DIR that mails kept as files are written to (and an earlier release wrote to with PostgreSQL too). */
export const MAIL_FOLDER = 'outbox';

/** A mail's file name from its stored message id; encoded, so no id names a path. */
export const mailFileName = (messageId: string) => `${encodeURIComponent(messageId)}.eml`;

/** The stored message id inside a Message-ID header (`<id@domain>`). */
export const storedId = (header: string) => /^<(.+)@[^@]*>$/.exec(header)?.[1] ?? header;
