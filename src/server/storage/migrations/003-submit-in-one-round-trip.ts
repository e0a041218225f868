import type { Migration } from './migrate';

export const sqlite: Migration = { version: 3, name: 'a submit stored in one round trip', statements: [] };

export const postgres: Migration = {
  version: 3,
  name: 'a submit stored in one round trip',
  statements: [
    `CREATE FUNCTION portal_store_request(
p_reference text, p_brand text, p_variant text, p_locale text, p_payload text, p_key text, p_hash text,
p_now bigint, p_image1 text, p_image2 text, p_deliveries text, p_counted_since bigint, p_mail_limit integer
) RETURNS TABLE (stored_reference text, stored_hash text, new_request boolean)
LANGUAGE plpgsql AS $$
DECLARE
new_id bigint;
claimed text[];
d record;
sent_to integer;
BEGIN
INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at)
VALUES (p_reference, p_brand, p_variant, p_locale, p_payload, p_key, p_hash, p_now)
ON CONFLICT (idempotency_key) DO NOTHING RETURNING id INTO new_id;
IF new_id IS NULL THEN
  RETURN QUERY SELECT r.reference, r.payload_hash, false FROM requests r WHERE r.idempotency_key = p_key;
  RETURN;
END IF;
WITH taken AS (
  UPDATE photos SET request_id = new_id, owner = NULL
  WHERE name IN (p_image1, p_image2) AND photos.request_id IS NULL RETURNING name
) SELECT coalesce(array_agg(name), '{}') INTO claimed FROM taken;
IF p_image1 = p_image2 OR NOT (p_image1 = ANY (claimed) AND p_image2 = ANY (claimed)) THEN
  RAISE EXCEPTION USING ERRCODE = 'PT409', MESSAGE = 'photos unavailable', DETAIL = array_to_string(claimed, ',');
END IF;
FOR d IN SELECT * FROM json_to_recordset(p_deliveries::json)
    AS x(kind text, recipient text, subject text, body text, message_id text, counted_kinds text[]) LOOP
  IF d.counted_kinds IS NOT NULL THEN
    SELECT count(*) INTO sent_to FROM outbox o
    WHERE o.recipient = d.recipient AND o.queued_at > p_counted_since AND o.kind = ANY (d.counted_kinds);
    CONTINUE WHEN sent_to >= p_mail_limit;
  END IF;
  INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at, queued_at, message_id)
  VALUES (new_id, d.kind, d.recipient, d.subject, d.body, p_now, p_now, d.message_id);
END LOOP;
RETURN QUERY SELECT p_reference, p_hash, true;
END;
$$`,
  ],
};
