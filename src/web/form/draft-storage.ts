import type { RepairFormData } from '../../core/types';

/**
 * sessionStorage keeps a draft per brand across an accidental reload, and
 * the sent state so a reload after success shows the confirmation again.
 * Storage may be unavailable (private mode, disabled): then nothing is kept.
 */
const KEY_PREFIX = 'repair-portal:';
const draftKey = (brandId: string) => `${KEY_PREFIX}draft:${brandId}`;
const sentKey = (brandId: string) => `${KEY_PREFIX}sent:${brandId}`;
const thumbsKey = (brandId: string) => `${KEY_PREFIX}thumbnails:${brandId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function read<T>(key: string): T | null {
  try {
    const raw = storage()?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // quota or privacy mode: the draft is a convenience only
  }
}

/** Whether this tab keeps anything of the portal (a draft, a sent state, thumbnails): the page then starts at once to show it. */
export function keptInThisTab(): boolean {
  try {
    const kept = storage();
    for (let i = 0; kept && i < kept.length; i++) if (kept.key(i)?.startsWith(KEY_PREFIX)) return true;
  } catch {
    // unavailable: nothing is kept
  }
  return false;
}

export interface Draft {
  data: RepairFormData;
  /** The customer picked the country (not the route's default): it stays on a route of another country. */
  countryChosen: boolean;
}

export function loadDraft(brandId: string): Draft | null {
  const stored = read<RepairFormData & { countryChosen?: unknown }>(draftKey(brandId));
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const { countryChosen, ...data } = stored;
  return { data, countryChosen: countryChosen === true };
}

export function saveDraft(brandId: string, data: RepairFormData, countryChosen: boolean): void {
  write(draftKey(brandId), countryChosen ? { ...data, countryChosen } : data);
}

/** A chosen photo's thumbnail (a small data: URL) under its picker, with the file name it shows. */
export type Thumbnails = Record<string, { name: string; url: string }>;

export function loadThumbnails(brandId: string): Thumbnails {
  return read<Thumbnails>(thumbsKey(brandId)) ?? {};
}

export function saveThumbnail(brandId: string, field: string, name: string, url: string): Thumbnails {
  const all = { ...loadThumbnails(brandId), [field]: { name, url } };
  write(thumbsKey(brandId), all);
  return all;
}

export function clearDraft(brandId: string): void {
  try {
    storage()?.removeItem(thumbsKey(brandId));
    storage()?.removeItem(draftKey(brandId));
  } catch {
    // see write
  }
}

export interface SentState {
  email: string;
  /** The request's reference, when the server gave one (sent states kept before references were shown have none). */
  reference?: string;
}

export function loadSent(brandId: string): SentState | null {
  const sent = read<SentState>(sentKey(brandId));
  if (!sent || typeof sent.email !== 'string') return null;
  return typeof sent.reference === 'string' && sent.reference ? { email: sent.email, reference: sent.reference } : { email: sent.email };
}

export function saveSent(brandId: string, sent: SentState): void {
  write(sentKey(brandId), sent);
}

/** The customer asked for a new request: the tab no longer shows the confirmation. */
export function forgetSent(brandId: string): void {
  try {
    storage()?.removeItem(sentKey(brandId));
  } catch {
    // see write
  }
}
