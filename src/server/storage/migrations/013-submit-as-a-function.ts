import type { Migration } from './migrate';

export const sqlite: Migration = { version: 13, name: 'a submit as one function call', statements: [] };

export const postgres: Migration = {
  version: 13,
  name: 'a submit as one function call',
  statements: [
    // A submit was one statement of eight CTEs: PostgreSQL's backend spent a fifth of its CPU per submit setting
    // up that plan's nodes (sorts, hash joins, a window, subqueries) at every call, and more running them. Here
    // the same steps are simple statements, each planned once per connection and kept: the request inserted (a key
    // stored before inserts nothing, and nothing else is done), its photos claimed where each is still unclaimed
    // (of two requests naming one, the second waits for the first and finds it claimed), and when one was not,
    // everything rolled back by the error RP409; then each mailbox's turn taken, in one order, and its day counted
    // (a VOLATILE function's statements each see what committed before them: the submit whose turn came first),
    // and the deliveries within the limit queued, in their order. A delivery's place among its mailbox's (rank)
    // comes from the caller. The turns' locks are version 9's: an instance still sending the old statement
    // during a rolling upgrade takes the same ones.
    `CREATE FUNCTION portal_store_request(
  p_reference text, p_brand text, p_variant text, p_locale text, p_payload text, p_idempotency_key text,
  p_payload_hash text, p_now bigint, p_form_revision text, p_names text[], p_counted text[], p_since bigint,
  p_deliveries json, p_limit bigint, p_seed bigint,
  OUT stored_id bigint, OUT sent_counts jsonb)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_claimed bigint;
  v_key text;
  v_n bigint;
  v_oldest bigint;
BEGIN
INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
  VALUES (p_reference, p_brand, p_variant, p_locale, p_payload, p_idempotency_key, p_payload_hash, p_now, p_form_revision)
  ON CONFLICT (idempotency_key) DO NOTHING RETURNING id INTO stored_id;
IF stored_id IS NULL THEN RETURN; END IF;
IF cardinality(p_names) > 0 THEN
  -- Asked as num_nulls: with request_id IS NULL, a plan kept from when the table had no statistics read the
  -- whole partial index of unclaimed photos (0.8 ms a submit with 300,000 of them) instead of the names.
  UPDATE photos SET request_id = stored_id, owner = NULL WHERE name = ANY (p_names) AND num_nulls(request_id) = 1;
  GET DIAGNOSTICS v_claimed = ROW_COUNT;
  -- A name listed twice is one photo: the request is not stored either.
  IF v_claimed <> cardinality(p_names) THEN
    RAISE EXCEPTION 'a photo of this request is not unclaimed' USING ERRCODE = 'RP409';
  END IF;
END IF;
IF cardinality(p_counted) > 1 THEN
  p_counted := ARRAY(SELECT k FROM unnest(p_counted) k ORDER BY hashtextextended(k, p_seed));
END IF;
FOREACH v_key IN ARRAY p_counted LOOP
  PERFORM pg_advisory_xact_lock(hashtextextended(v_key, p_seed));
END LOOP;
FOREACH v_key IN ARRAY p_counted LOOP
  SELECT count(*), min(o.queued_at) INTO v_n, v_oldest FROM outbox o WHERE o.limit_key = v_key AND o.queued_at > p_since;
  IF v_n > 0 THEN
    sent_counts := coalesce(sent_counts, '{}') || jsonb_build_object(v_key, jsonb_build_array(v_n, v_oldest));
  END IF;
END LOOP;
INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, next_attempt_at, due_at, queued_at, message_id, language)
  SELECT stored_id, d.kind, d.channel, d.recipient, d.limit_key, d.subject, d.body, d.next_attempt_at, d.next_attempt_at, p_now, d.message_id, d.language
  FROM json_to_recordset(p_deliveries)
    AS d(rank bigint, kind text, channel text, recipient text, limit_key text, subject text, body text, next_attempt_at bigint, message_id text, language text)
  WHERE d.limit_key IS NULL OR coalesce((sent_counts -> d.limit_key ->> 0)::bigint, 0) + d.rank <= p_limit;
END;
$$`,
  ],
};
