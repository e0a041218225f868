import type { Migration } from './migrate';

// PostgreSQL's versions 9 and 10 count a mailbox's mails after its turn; SQLite's one writer takes the turns itself.
export const sqlite: Migration = { version: 9, name: "a mailbox's mails counted after its turn", statements: [] };

export const postgres: Migration = {
  version: 9,
  name: "a mailbox's mails counted after its turn",
  statements: [
    // A submit is one statement, with no transaction around it: its mailboxes' turns are taken here, held to
    // its commit, and the count that follows is a query of its own (a VOLATILE function's queries each take a
    // fresh snapshot), so it sees the mails of the submit whose turn came before. The rules stay in TypeScript
    // (request-writer.ts): this only takes the locks, in one order, then counts.
    `CREATE FUNCTION portal_mails_after_turns(p_keys text[], p_seed bigint, p_since bigint)
RETURNS TABLE (limit_key text, n bigint, oldest bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
PERFORM pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(k, p_seed) AS h FROM unnest(p_keys) k ORDER BY 1) turns;
RETURN QUERY SELECT o.limit_key, count(*), min(o.queued_at) FROM outbox o
  WHERE o.limit_key = ANY (p_keys) AND o.queued_at > p_since GROUP BY o.limit_key;
END;
$$`,
  ],
};
