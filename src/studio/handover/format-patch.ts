import { someChangedFiles } from './changed-files.ts';
import { commitMessage } from './commit-message.ts';
import { fileDiff } from './file-diff.ts';
import { headerText, mailbox, mailDate } from './mail-headers.ts';
import type { ChangeMessage, FileChange } from './types.ts';

// format-patch names the commit it wrote out; this change has no commit yet. git am reads past the id.
const NO_COMMIT = '0'.repeat(40);

/**
 * The change as `git format-patch --full-index` writes one commit: an mbox
 * mail that `git am` applies to the project as the studio got it, giving one
 * commit with this message, author and date.
 */
export function formatPatch(changes: FileChange[], message: ChangeMessage): string {
  const files = someChangedFiles(changes);
  const { subject, body } = commitMessage(message.subject, message.body);
  const header = [
    `From ${NO_COMMIT} Mon Sep 17 00:00:00 2001`,
    `From: ${mailbox(message.author)}`,
    `Date: ${mailDate(message.date)}`,
    `Subject: [PATCH] ${headerText(subject)}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
  ].join('\n');
  const description = body === '' ? '' : `${body}\n`;
  return `${header}\n\n${description}---\n\n${files.map(fileDiff).join('')}-- \nrepair-portal brand studio\n\n`;
}
