import type { Migration } from './migrate';

export const sqlite: Migration = { version: 12, name: "a mailbox's count with a kept plan", statements: [] };

export const postgres: Migration = {
  version: 12,
  name: "a mailbox's count with a kept plan",
  statements: [
    // Version 10 planned the count at every call (EXECUTE): a tenth of PostgreSQL's CPU per submit went to parsing
    // and planning it (perf, a mailbox per customer). Its plan is now made once per connection and kept, and it
    // cannot be the one version 9 kept, which read every row once the outbox had grown: with sequential scans off
    // in this function, the count's plan is the index of its mailbox's day (outbox_limit), whatever the outbox
    // held when it was made (kept-plans.test.ts).
    `CREATE OR REPLACE FUNCTION portal_mails_after_turns(p_keys text[], p_seed bigint, p_since bigint)
RETURNS TABLE (limit_key text, n bigint, oldest bigint)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
BEGIN
PERFORM pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(k, p_seed) AS h FROM unnest(p_keys) k ORDER BY 1) turns;
IF cardinality(p_keys) = 0 THEN RETURN; END IF;
RETURN QUERY SELECT o.limit_key, count(*), min(o.queued_at) FROM outbox o
  WHERE o.limit_key = ANY (p_keys) AND o.queued_at > p_since GROUP BY o.limit_key;
END;
$$`,
  ],
};
