import type { RefusedRule } from './upload-state';

export interface UploadJob {
  promise: Promise<string>;
  abort(): void;
}

/**
 * The answers that refuse the file itself, by the photo rule it breaks: sending it again cannot
 * help. Every other failure (the network, 429, 503, a fault) may pass, and is worth a retry.
 */
const REFUSALS: Record<number, RefusedRule> = { 413: 'maxBytes', 415: 'types' };

/** An upload the server refused by a photo rule: `refusedFor` names it (use-photo-uploads.ts reads it). */
export function refusal(status: number): Error | undefined {
  const rule = REFUSALS[status];
  return rule ? Object.assign(new Error(`upload refused: ${status}`), { refusedFor: rule }) : undefined;
}

/**
 * POSTs one photo as multipart field `image`. XMLHttpRequest, not fetch:
 * only it reports upload progress. Resolves with the stored `filename`;
 * rejects on a network failure, a non-2xx answer (naming the photo rule of a
 * refusal) or an answer without one.
 */
export function uploadPhoto(url: string, file: File, onProgress: (percent: number) => void): UploadJob {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<string>((resolve, reject) => {
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    xhr.addEventListener('load', () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(refusal(xhr.status) ?? new Error(`upload answered ${xhr.status}`));
      try {
        const filename = (JSON.parse(xhr.responseText) as { filename?: unknown }).filename;
        if (typeof filename === 'string' && filename) resolve(filename);
        else reject(new Error('upload answer without filename'));
      } catch (error) {
        reject(error);
      }
    });
    xhr.addEventListener('error', () => reject(new Error('upload failed')));
    xhr.addEventListener('abort', () => reject(new DOMException('upload aborted', 'AbortError')));
    xhr.addEventListener('timeout', () => reject(new Error('upload timed out')));
    const body = new FormData();
    body.append('image', file, file.name);
    xhr.send(body);
  });
  return { promise, abort: () => xhr.abort() };
}
