import type { FileChange } from '../handover';
import { ProjectLayout } from './layout';
import { sameContent, fromBase64, toBase64, type FileContent, type FileMap } from './project-files';

/** Where this browser keeps the edits: one project per studio, so one key. */
const STORAGE_KEY = 'repair-portal-studio';

export type { FileChange };

type StoredContent = { text: string } | { base64: string } | null;

interface Stored {
  /** The commit the edits were made against: a studio built later says the project moved on. */
  commit?: string;
  edits: Record<string, StoredContent>;
}

const stored = (content: FileContent | undefined): StoredContent =>
  content === undefined ? null : typeof content === 'string' ? { text: content } : { base64: toBase64(content) };

const restored = (content: StoredContent): FileContent | undefined => (content === null ? undefined : 'text' in content ? content.text : fromBase64(content.base64));

/**
 * The project as the brand owner sees it: the files the studio was built with, and over them every edit
 * made in this browser (kept in its storage, so a reload or a closed tab loses nothing), until handed
 * over or discarded. Nothing is ever written to the server.
 */
export class ProjectStore {
  private edits = new Map<string, FileContent | undefined>();
  private merged: FileMap;
  private changed: FileChange[] | undefined;
  private readonly listeners = new Set<() => void>();
  /** The commit of edits kept from an earlier build of the studio, when it differs from this one's. */
  readonly movedFrom: string | undefined;
  /** The browser's storage refused the last edits (full, or private browsing): they live only in this tab. */
  notKept = false;

  constructor(
    readonly base: FileMap,
    readonly commit: string | undefined,
    readonly layout: ProjectLayout,
    private readonly storage: Storage | undefined = globalThis.localStorage,
  ) {
    const kept = this.load();
    for (const [path, content] of Object.entries(kept?.edits ?? {})) this.edits.set(path, restored(content));
    this.movedFrom = kept && Object.keys(kept.edits).length > 0 && kept.commit !== commit ? kept.commit : undefined;
    this.merged = this.merge();
  }

  /** Every file as edited; the same map until the next edit (React compares it). */
  files(): FileMap {
    return this.merged;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Sets files (undefined: removes them), in one step. */
  write(changes: Readonly<Record<string, FileContent | undefined>>): void {
    for (const [path, content] of Object.entries(changes)) {
      if (sameContent(content, this.base.get(path))) this.edits.delete(path);
      else this.edits.set(path, content);
    }
    this.commitEdits();
  }

  /** Forgets every edit: the project as the studio was built with it. */
  discard(): void {
    this.edits.clear();
    this.commitEdits();
  }

  /** What differs from the project, by path; the same list until the next edit. */
  changes(): FileChange[] {
    return (this.changed ??= this.changeList());
  }

  private changeList(): FileChange[] {
    return [...this.edits]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, after]) => ({ path, before: this.base.get(path), after }))
      .filter((change) => !sameContent(change.before, change.after));
  }

  private merge(): FileMap {
    const files = new Map(this.base);
    for (const [path, content] of this.edits) {
      if (content === undefined) files.delete(path);
      else files.set(path, content);
    }
    return files;
  }

  private commitEdits(): void {
    this.merged = this.merge();
    this.changed = undefined;
    this.save();
    for (const listener of this.listeners) listener();
  }

  private load(): Stored | undefined {
    try {
      const text = this.storage?.getItem(STORAGE_KEY);
      return text ? (JSON.parse(text) as Stored) : undefined;
    } catch {
      return undefined;
    }
  }

  private save(): void {
    const data: Stored = { commit: this.commit, edits: Object.fromEntries([...this.edits].map(([path, content]) => [path, stored(content)])) };
    // A full storage (a private window's quota) keeps the edits for this visit only: the studio says so.
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(data));
      this.notKept = false;
    } catch {
      this.notKept = true;
    }
  }
}
