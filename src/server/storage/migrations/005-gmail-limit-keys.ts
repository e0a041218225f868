import type { Migration } from './migrate';

/**
 * Version 5 on both backends, the same SQL: mailboxOf counts every dotted spelling of a Gmail name, at
 * gmail.com or googlemail.com, as one inbox (core/mailbox.ts), so the limit keys already stored are
 * rewritten and mails of the last day still count and erasure finds them. Keys are lower-case with the
 * +tag gone; only the dots and the domain change.
 */
const GMAIL_LIMIT_KEYS: Migration = {
  version: 5,
  name: 'one limit key per Gmail inbox',
  statements: [
    `UPDATE outbox SET limit_key = replace(substr(limit_key, 1, length(limit_key) - length('@gmail.com')), '.', '') || '@gmail.com'
WHERE limit_key LIKE '%@gmail.com'`,
    `UPDATE outbox SET limit_key = replace(substr(limit_key, 1, length(limit_key) - length('@googlemail.com')), '.', '') || '@gmail.com'
WHERE limit_key LIKE '%@googlemail.com'`,
  ],
};

export const sqlite = GMAIL_LIMIT_KEYS;
export const postgres = GMAIL_LIMIT_KEYS;
