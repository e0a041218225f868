import type { ValidationIssue } from '../../core/field-errors';

/** A photo rule (core/keywords/file-rules.ts) the server found broken: 415 is the type, 413 the size. */
export type RefusedRule = 'types' | 'maxBytes';

export interface PhotoUploadState {
  /**
   * invalid: refused by the photo rules, the page's own check or the server's; error: the upload itself failed;
   * gone: uploaded, but the server no longer held it when the request was sent (choose it again).
   */
  status: 'invalid' | 'uploading' | 'done' | 'error' | 'gone';
  percent: number;
  fileName: string;
  /** blob: URL of the chosen file, revoked when replaced or unmounted; none for a refused file, no image to show. */
  previewUrl?: string;
  /** The rule the server refused the file by; the page's own check finds its rule in the form data. */
  refusedFor?: RefusedRule;
  /** What the server said of a failed upload, in the page's language (no room for photos now); none: the network's message. */
  said?: string;
}

export type Uploads = Readonly<Record<string, PhotoUploadState>>;

/** What the upload driver (use-photo-uploads.ts) reports; the form reducer keeps the result. */
export type UploadEvent =
  | { type: 'uploadStarted'; field: string; fileName: string; previewUrl?: string }
  | { type: 'uploadRefused'; field: string; fileName: string }
  | { type: 'uploadRefusedByServer'; field: string; rule: RefusedRule }
  | { type: 'uploadProgressed'; field: string; percent: number }
  | { type: 'uploadDone'; field: string }
  | { type: 'uploadFailed'; field: string; said?: string }
  | { type: 'uploadGone'; field: string };

export function reduceUploads(uploads: Uploads, event: UploadEvent): Uploads {
  const { field } = event;
  switch (event.type) {
    case 'uploadStarted':
      return { ...uploads, [field]: { status: 'uploading', percent: 0, fileName: event.fileName, previewUrl: event.previewUrl } };
    case 'uploadRefused':
      return { ...uploads, [field]: { status: 'invalid', percent: 0, fileName: event.fileName } };
    case 'uploadRefusedByServer':
      return { ...uploads, [field]: { status: 'invalid', percent: 0, fileName: uploads[field]?.fileName ?? '', refusedFor: event.rule } };
    case 'uploadProgressed':
      return { ...uploads, [field]: { ...uploads[field], percent: event.percent } as PhotoUploadState };
    case 'uploadDone':
      return { ...uploads, [field]: { ...uploads[field], status: 'done', percent: 100 } as PhotoUploadState };
    case 'uploadFailed':
      return { ...uploads, [field]: { ...uploads[field], status: 'error', said: event.said } as PhotoUploadState };
    case 'uploadGone':
      return { ...uploads, [field]: { status: 'gone', percent: 0, fileName: uploads[field]?.fileName ?? '', previewUrl: uploads[field]?.previewUrl } };
  }
}

/**
 * The server's refusals as issues of the photo rules, so that they read as the page's own check of the
 * same rule ('Invalid file type', 'File too large'); `except` leaves out a field whose file is being replaced.
 */
export function refusedIssues(uploads: Uploads, except?: string): ValidationIssue[] {
  return Object.entries(uploads).flatMap(([field, state]) =>
    state.refusedFor && field !== except ? [{ keyword: 'fileRules', instancePath: `/${field}`, params: { rule: state.refusedFor } }] : [],
  );
}

/** Fields whose `required` stays quiet: their photo is still uploading, failed (that says 'Netwerk error!') or is to be chosen again. */
export function quietUploads(uploads: Uploads): string[] {
  return Object.entries(uploads)
    .filter(([, s]) => s.status === 'uploading' || s.status === 'error' || s.status === 'gone')
    .map(([field]) => field);
}
