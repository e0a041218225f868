import type { RefusedRule } from '../../upload-state';

export interface UploadJob {
  promise: Promise<string>;
  abort(): void;
}

/** Where a photo goes, and the page's language: what the server says of a refusal for now, it says in it. */
export interface UploadTarget {
  url: string;
  locale: string;
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
 * A failure that may pass; with what the server said of it when it refused for now for want of room
 * (503 with `refusal`: its `error` is then said for people, in the language the upload asked for).
 */
function failure(xhr: XMLHttpRequest): Error {
  let said: unknown;
  try {
    const answer = xhr.status === 503 ? (JSON.parse(xhr.responseText) as { error?: unknown; refusal?: unknown }) : undefined;
    if (typeof answer?.refusal === 'string') said = answer.error;
  } catch {
    // Not the server's JSON (a proxy's page): the network's message it is.
  }
  return Object.assign(new Error(`upload answered ${xhr.status}`), typeof said === 'string' && said ? { said } : {});
}

/**
 * POSTs one photo as multipart field `image`. XMLHttpRequest, not fetch:
 * only it reports upload progress. Resolves with the stored `filename`;
 * rejects on a network failure, a non-2xx answer (naming the photo rule of a
 * refusal) or an answer without one.
 */
export function uploadPhoto({ url, locale }: UploadTarget, file: File, onProgress: (percent: number) => void): UploadJob {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<string>((resolve, reject) => {
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Portal-Locale', locale);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    xhr.addEventListener('load', () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(refusal(xhr.status) ?? failure(xhr));
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
