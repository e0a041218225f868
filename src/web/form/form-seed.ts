import { createContext } from 'react';
import { FORM_SEED_ELEMENT_ID, type FormSeed } from '../../core/form-seed';

/** The server's seed for this page (core/form-seed.ts), if it rendered one. */
export const FormSeedContext = createContext<FormSeed | null>(null);

export function readSeed(doc: Document): FormSeed | null {
  const text = doc.getElementById(FORM_SEED_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as FormSeed;
  } catch {
    return null;
  }
}
