import type { Migration } from './migrate';

export const sqlite: Migration = { version: 14, name: 'the submits of one turn in one transaction', statements: [] };

export const postgres: Migration = {
  version: 14,
  name: 'the submits of one turn in one transaction',
  statements: [
    // The requests that reach the writer in one event-loop turn (at 50 connections, 5 to 20 of them) were a
    // call of portal_store_request each, each its own transaction: a commit, a round trip and a call's setup
    // apiece. Here they are one call and one transaction, each request stored by version 13's function as it
    // was. Every mailbox of the batch takes its turn first, in the one order every submit takes them: a batch
    // that took them request by request could wait for another batch that waits for it. A request whose key
    // was stored before (by an earlier batch, or earlier in this one) gives no id, as before. The rows answer
    // the requests in their order. Any error rolls the whole batch back (a photo that is not unclaimed raises
    // RP409): the caller then stores its requests one by one, so one request's refusal is its own.
    `CREATE FUNCTION portal_store_requests(p_requests json, p_now bigint, p_since bigint, p_limit bigint, p_seed bigint)
RETURNS TABLE (stored_id bigint, sent_counts jsonb)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_key text;
  r record;
BEGIN
FOR v_key IN
  SELECT k FROM (SELECT DISTINCT json_array_elements_text(e -> 'counted') AS k FROM json_array_elements(p_requests) e) keys
  ORDER BY hashtextextended(k, p_seed)
LOOP
  PERFORM pg_advisory_xact_lock(hashtextextended(v_key, p_seed));
END LOOP;
FOR r IN
  SELECT * FROM json_to_recordset(p_requests) AS x(reference text, brand text, variant text, locale text, payload text,
    idempotency_key text, payload_hash text, form_revision text, names text[], counted text[], deliveries json)
LOOP
  SELECT s.stored_id, s.sent_counts INTO stored_id, sent_counts
    FROM portal_store_request(r.reference, r.brand, r.variant, r.locale, r.payload, r.idempotency_key, r.payload_hash, p_now,
      r.form_revision, r.names, r.counted, p_since, r.deliveries, p_limit, p_seed) s;
  RETURN NEXT;
END LOOP;
END;
$$`,
  ],
};
