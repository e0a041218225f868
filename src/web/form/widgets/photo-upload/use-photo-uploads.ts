import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { shrinkAndUpload, type UploadJob } from './upload-photo';

export interface PhotoUploadState {
  status: 'invalid' | 'uploading' | 'done' | 'error';
  percent: number;
  fileName: string;
  /** blob: URL of the chosen file, revoked when replaced or unmounted. */
  previewUrl?: string;
}

export interface UploadCallbacks {
  onDone(filename: string): void;
  onError(): void;
}

export interface PhotoUploads {
  state: Record<string, PhotoUploadState>;
  /** Fields whose upload is still running. */
  running(): string[];
  /** Settles when every running upload has finished, one way or the other. */
  settled(): Promise<void>;
  start(field: string, file: File, url: string, callbacks: UploadCallbacks): void;
  /** A file refused by the photo rules: shown by name, not uploaded. */
  refuse(field: string, file: File): void;
}

function preview(file: File): string | undefined {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;
}

export function usePhotoUploads(): PhotoUploads {
  const [state, setState] = useState<Record<string, PhotoUploadState>>({});
  const jobs = useRef(new Map<string, UploadJob>());
  const previews = useRef(new Map<string, string>());

  useEffect(() => {
    const running = jobs.current;
    const urls = previews.current;
    return () => {
      for (const job of running.values()) job.abort();
      running.clear();
      for (const url of urls.values()) URL.revokeObjectURL?.(url);
      urls.clear();
    };
  }, []);

  const replacePreview = useCallback((field: string, file: File): string | undefined => {
    const old = previews.current.get(field);
    if (old) URL.revokeObjectURL?.(old);
    const url = preview(file);
    if (url) previews.current.set(field, url);
    else previews.current.delete(field);
    return url;
  }, []);

  const patch = useCallback((field: string, next: Partial<PhotoUploadState>) => {
    setState((all) => ({ ...all, [field]: { ...all[field], ...next } as PhotoUploadState }));
  }, []);

  const start = useCallback<PhotoUploads['start']>(
    (field, file, url, callbacks) => {
      jobs.current.get(field)?.abort();
      const previewUrl = replacePreview(field, file);
      setState((all) => ({ ...all, [field]: { status: 'uploading', percent: 0, fileName: file.name, previewUrl } }));
      const job = shrinkAndUpload(url, file, (percent) => {
        if (jobs.current.get(field) === job) patch(field, { percent });
      });
      jobs.current.set(field, job);
      job.promise.then(
        (filename) => {
          if (jobs.current.get(field) !== job) return;
          jobs.current.delete(field);
          patch(field, { status: 'done', percent: 100 });
          callbacks.onDone(filename);
        },
        () => {
          if (jobs.current.get(field) !== job) return;
          jobs.current.delete(field);
          patch(field, { status: 'error' });
          callbacks.onError();
        },
      );
    },
    [patch, replacePreview],
  );

  const refuse = useCallback<PhotoUploads['refuse']>(
    (field, file) => {
      jobs.current.get(field)?.abort();
      jobs.current.delete(field);
      const previewUrl = replacePreview(field, file);
      setState((all) => ({ ...all, [field]: { status: 'invalid', percent: 0, fileName: file.name, previewUrl } }));
    },
    [replacePreview],
  );

  const running = useCallback(() => [...jobs.current.keys()], []);
  const settled = useCallback(async () => {
    await Promise.allSettled([...jobs.current.values()].map((j) => j.promise));
  }, []);

  return useMemo(() => ({ state, running, settled, start, refuse }), [state, running, settled, start, refuse]);
}
