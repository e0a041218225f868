import type { FieldErrors } from './field-errors';
import type { RepairFormData } from './types';

/**
 * Why a post without scripts came back as it did, when the form itself does not
 * say it (field errors do): a body that could not be read, too large, too many
 * posts, the service unable to store, a fault, a post from another site, or a
 * request sent already under the form's key with other content.
 */
export type NoticeKind = 'unreadable' | 'too-large' | 'too-many' | 'unavailable' | 'failed' | 'cross-site' | 'already-sent';

export interface FormNotice {
  kind: NoticeKind;
  /** The request sent already (`already-sent`). */
  reference?: string;
}

/**
 * The state the server rendered a brand page in after a form post without
 * scripts: the values kept and the errors found, or the address a request
 * was confirmed to. The page hydrates from the same seed, read from a JSON
 * data block (a data block is not a script: the CSP allows it).
 */
export interface FormSeed {
  brandId: string;
  formData: RepairFormData;
  errors: FieldErrors;
  /** Set once the request is stored: the page shows the confirmation. */
  sentTo?: string;
  /** The stored request's reference, shown in the confirmation. */
  reference?: string;
  /** Shown above the form. */
  notice?: FormNotice;
}

export const FORM_SEED_ELEMENT_ID = 'form-seed';

/** The seed as a data block for the page's HTML; `<` escaped so the data cannot close its element. */
export function seedDataBlock(seed: FormSeed): string {
  const json = JSON.stringify(seed).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${FORM_SEED_ELEMENT_ID}">${json}</script>`;
}
