import { randomUUID } from 'node:crypto';
import { SUBMISSION_FIELD } from '../../core/form-post';

const EMPTY_KEY = new RegExp(`(<input type="hidden" name="${SUBMISSION_FIELD}" value=")(")`);

/**
 * Fills the form's hidden idempotency key: a new one per page view, or the
 * one a re-rendered post came with (it stored nothing yet). The prerendered
 * HTML is the same for everyone, so the key is filled as the page is sent.
 */
export function withSubmissionKey(html: string, key: string = randomUUID()): string {
  return html.replace(EMPTY_KEY, (_m, start: string, end: string) => `${start}${key}${end}`);
}
