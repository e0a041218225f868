import type { Migration } from './migrate';

/**
 * Version 7 on both backends, the same SQL: each delivery keeps when it first became due (at its
 * queueing, or the later hour the mail cap held it for), so the oldest pending delivery's age counts
 * from there. next_attempt_at could not tell: a PostgreSQL lease moves it forward while a first
 * attempt is under way, so an instance dying in every first attempt hid a delivery's age. Pending
 * rows of before get the time the figures read for them until now.
 */
const DUE_TIMES: Migration = {
  version: 7,
  name: 'when each delivery became due',
  statements: [
    'ALTER TABLE outbox ADD COLUMN due_at BIGINT',
    `UPDATE outbox SET due_at = CASE WHEN attempts = 0 AND next_attempt_at > COALESCE(queued_at, next_attempt_at) THEN next_attempt_at
  ELSE COALESCE(queued_at, next_attempt_at) END
WHERE sent_at IS NULL AND failed_at IS NULL`,
  ],
};

export const sqlite = DUE_TIMES;
export const postgres = DUE_TIMES;
