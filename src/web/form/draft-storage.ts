import type { RepairFormData } from '../../core/types';

/**
 * sessionStorage keeps a draft per brand across an accidental reload, and
 * the sent state so a reload after success shows the confirmation again.
 * Storage may be unavailable (private mode, disabled): then nothing is kept.
 */
const draftKey = (brandId: string) => `repair-portal:draft:${brandId}`;
const sentKey = (brandId: string) => `repair-portal:sent:${brandId}`;

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

export function loadDraft(brandId: string): RepairFormData | null {
  const draft = read<RepairFormData>(draftKey(brandId));
  return draft && typeof draft === 'object' && !Array.isArray(draft) ? draft : null;
}

export function saveDraft(brandId: string, data: RepairFormData): void {
  write(draftKey(brandId), data);
}

export function clearDraft(brandId: string): void {
  try {
    storage()?.removeItem(draftKey(brandId));
  } catch {
    // see write
  }
}

export interface SentState {
  email: string;
}

export function loadSent(brandId: string): SentState | null {
  const sent = read<SentState>(sentKey(brandId));
  return sent && typeof sent.email === 'string' ? sent : null;
}

export function saveSent(brandId: string, sent: SentState): void {
  write(sentKey(brandId), sent);
}
