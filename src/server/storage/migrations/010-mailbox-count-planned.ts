import type { Migration } from './migrate';

export const sqlite: Migration = { version: 10, name: "a mailbox's count planned for its keys", statements: [] };

export const postgres: Migration = {
  version: 10,
  name: "a mailbox's count planned for its keys",
  statements: [
    // The pool keeps plans PostgreSQL finds as good for any values (pool.ts); how to count a mailbox's mails
    // is not one of them (one mailbox may hold most of the outbox), so the count is dynamic SQL: planned at
    // each call, for these keys and the outbox as it is.
    `CREATE OR REPLACE FUNCTION portal_mails_after_turns(p_keys text[], p_seed bigint, p_since bigint)
RETURNS TABLE (limit_key text, n bigint, oldest bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
PERFORM pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(k, p_seed) AS h FROM unnest(p_keys) k ORDER BY 1) turns;
IF cardinality(p_keys) = 0 THEN RETURN; END IF;
RETURN QUERY EXECUTE 'SELECT o.limit_key, count(*), min(o.queued_at) FROM outbox o
  WHERE o.limit_key = ANY ($1) AND o.queued_at > $2 GROUP BY o.limit_key' USING p_keys, p_since;
END;
$$`,
  ],
};
