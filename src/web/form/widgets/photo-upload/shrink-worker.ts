/// <reference lib="webworker" />
import { encodeSmaller } from './shrink-encode';

/** Shrinks one photo off the page's thread (see shrink-photo.ts); answers the smaller JPEG, null, or an error. */
self.onmessage = (event: MessageEvent<Blob>) => {
  encodeSmaller(event.data).then(
    (blob) => self.postMessage(blob),
    (error: unknown) => self.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};
