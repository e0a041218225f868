import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { RefusedRule, UploadEvent } from '../../upload-state';
import type { UploadJob, UploadTarget } from './send-photo';
import { shrinkAndUpload } from './upload-photo';

export interface UploadCallbacks {
  onDone(filename: string): void;
  /**
   * The upload failed (the network, the server for now: `said`, what it said of that), or the server
   * refused the file by `refused`.
   */
  onError(refused?: RefusedRule, said?: string): void;
}

/** The photo rule an upload's failure names, when the server refused the file itself (send-photo.ts). */
function refusedRule(error: unknown): RefusedRule | undefined {
  return (error as { refusedFor?: RefusedRule } | null)?.refusedFor;
}

/** What the server said of a refusal for now (send-photo.ts), in the page's language. */
function saidOf(error: unknown): string | undefined {
  return (error as { said?: string } | null)?.said;
}

/** Runs the uploads; what they show is reported as events (upload-state.ts) to the form's one state. */
export interface PhotoUploads {
  /** Fields whose upload is still running. */
  running(): string[];
  /** Settles when every running upload has finished, one way or the other. */
  settled(): Promise<void>;
  start(field: string, file: File, to: UploadTarget, callbacks: UploadCallbacks): void;
  /** A file refused by the photo rules: shown by name, not uploaded. */
  refuse(field: string, file: File): void;
  /** The file last chosen for the field: a retry sends it again without choosing it again. */
  chosen(field: string): File | undefined;
}

function preview(file: File): string | undefined {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;
}

/** The blob: URL shown for each field's chosen file: one at a time per field, all revoked on unmount. */
function usePreviewUrls(): { drop(field: string): void; replace(field: string, file: File): string | undefined } {
  const previews = useRef(new Map<string, string>());
  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const url of urls.values()) URL.revokeObjectURL?.(url);
      urls.clear();
    };
  }, []);
  const drop = useCallback((field: string) => {
    const old = previews.current.get(field);
    if (old) URL.revokeObjectURL?.(old);
    previews.current.delete(field);
  }, []);
  const replace = useCallback(
    (field: string, file: File) => {
      drop(field);
      const url = preview(file);
      if (url) previews.current.set(field, url);
      return url;
    },
    [drop],
  );
  return useMemo(() => ({ drop, replace }), [drop, replace]);
}

/** `upload`: how a photo is sent (the portal's API; the studio's preview sends nothing). */
export function usePhotoUploads(report: (event: UploadEvent) => void, upload = shrinkAndUpload): PhotoUploads {
  // Abort handles and File objects: things to release or resend, never rendered.
  const jobs = useRef(new Map<string, UploadJob>());
  const files = useRef(new Map<string, File>());
  const { drop: dropPreview, replace } = usePreviewUrls();

  useEffect(() => {
    const running = jobs.current;
    return () => {
      for (const job of running.values()) job.abort();
      running.clear();
    };
  }, []);

  const replacePreview = useCallback(
    (field: string, file: File): string | undefined => {
      files.current.set(field, file);
      return replace(field, file);
    },
    [replace],
  );

  const start = useCallback<PhotoUploads['start']>(
    (field, file, to, callbacks) => {
      jobs.current.get(field)?.abort();
      const previewUrl = replacePreview(field, file);
      report({ type: 'uploadStarted', field, fileName: file.name, previewUrl });
      const job = upload(to, file, (percent) => {
        if (jobs.current.get(field) === job) report({ type: 'uploadProgressed', field, percent });
      });
      jobs.current.set(field, job);
      job.promise.then(
        (filename) => {
          if (jobs.current.get(field) !== job) return;
          jobs.current.delete(field);
          report({ type: 'uploadDone', field });
          callbacks.onDone(filename);
        },
        (error: unknown) => {
          if (jobs.current.get(field) !== job) return;
          jobs.current.delete(field);
          const rule = refusedRule(error);
          if (rule) {
            // Not an image the server takes (a PDF named .jpg): nothing to show, nothing to send again.
            dropPreview(field);
            files.current.delete(field);
            report({ type: 'uploadRefusedByServer', field, rule });
          } else {
            report({ type: 'uploadFailed', field, said: saidOf(error) });
          }
          callbacks.onError(rule, saidOf(error));
        },
      );
    },
    [report, replacePreview, dropPreview, upload],
  );

  const refuse = useCallback<PhotoUploads['refuse']>(
    (field, file) => {
      jobs.current.get(field)?.abort();
      jobs.current.delete(field);
      files.current.delete(field);
      dropPreview(field);
      report({ type: 'uploadRefused', field, fileName: file.name });
    },
    [report, dropPreview],
  );

  const running = useCallback(() => [...jobs.current.keys()], []);
  const settled = useCallback(async () => {
    await Promise.allSettled([...jobs.current.values()].map((j) => j.promise));
  }, []);
  const chosen = useCallback((field: string) => files.current.get(field), []);

  return useMemo(() => ({ running, settled, start, refuse, chosen }), [running, settled, start, refuse, chosen]);
}
