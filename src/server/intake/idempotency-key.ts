/** Printable ASCII, as the page's UUIDs and the no-script form's submission keys are; bounded so it cannot bloat the index. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/**
 * An Idempotency-Key as sent (a header of the JSON API, the submission field
 * of a form posted without scripts): none, a usable key, or one that is not.
 */
export function idempotencyKey(raw: unknown): { ok: true; key: string | undefined } | { ok: false } {
  if (raw === undefined || raw === '') return { ok: true, key: undefined };
  return typeof raw === 'string' && IDEMPOTENCY_KEY.test(raw) ? { ok: true, key: raw } : { ok: false };
}
