import { DEFAULT_ADDRESS_LOOKUP_URL } from '../../core/address-lookup';

export interface RuntimeSettings {
  /** '' = same origin; never ends with a slash. */
  apiBase: string;
  addressLookupUrl: string;
}

function meta(doc: Document, name: string): string {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';
}

/** Read from the served HTML at run time (the server fills the tags), so one build serves every environment. */
export function readRuntimeSettings(doc: Document): RuntimeSettings {
  return {
    apiBase: meta(doc, 'portal:api-base').replace(/\/+$/, ''),
    addressLookupUrl: meta(doc, 'portal:address-lookup-url') || DEFAULT_ADDRESS_LOOKUP_URL,
  };
}
