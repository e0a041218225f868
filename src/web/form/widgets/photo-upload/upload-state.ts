export interface PhotoUploadState {
  status: 'invalid' | 'uploading' | 'done' | 'error';
  percent: number;
  fileName: string;
  /** blob: URL of the chosen file, revoked when replaced or unmounted. */
  previewUrl?: string;
}

export type Uploads = Readonly<Record<string, PhotoUploadState>>;

/** What the upload driver (use-photo-uploads.ts) reports; the form reducer keeps the result. */
export type UploadEvent =
  | { type: 'uploadStarted'; field: string; fileName: string; previewUrl?: string }
  | { type: 'uploadRefused'; field: string; fileName: string; previewUrl?: string }
  | { type: 'uploadProgressed'; field: string; percent: number }
  | { type: 'uploadDone'; field: string }
  | { type: 'uploadFailed'; field: string };

export function reduceUploads(uploads: Uploads, event: UploadEvent): Uploads {
  const { field } = event;
  switch (event.type) {
    case 'uploadStarted':
      return { ...uploads, [field]: { status: 'uploading', percent: 0, fileName: event.fileName, previewUrl: event.previewUrl } };
    case 'uploadRefused':
      return { ...uploads, [field]: { status: 'invalid', percent: 0, fileName: event.fileName, previewUrl: event.previewUrl } };
    case 'uploadProgressed':
      return { ...uploads, [field]: { ...uploads[field], percent: event.percent } as PhotoUploadState };
    case 'uploadDone':
      return { ...uploads, [field]: { ...uploads[field], status: 'done', percent: 100 } as PhotoUploadState };
    case 'uploadFailed':
      return { ...uploads, [field]: { ...uploads[field], status: 'error' } as PhotoUploadState };
  }
}

/** Fields whose `required` stays quiet: their photo is still uploading, or failed (that says 'Netwerk error!'). */
export function quietUploads(uploads: Uploads): string[] {
  return Object.entries(uploads)
    .filter(([, s]) => s.status === 'uploading' || s.status === 'error')
    .map(([field]) => field);
}
