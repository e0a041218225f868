/**
 * The names the portal gives to what it keeps beside a request's own fields:
 * the export's own columns and JSON keys, the mails' `{{reference}}`, the
 * request's stored form revision. A form field may take none of them
 * (`npm run validate` refuses it): it would overwrite the portal's value
 * wherever the two meet.
 */
export const PORTAL_KEYS = ['reference', 'created_at', 'brand_id', 'variant', 'form', 'form_revision', 'locale'] as const;

export type PortalKey = (typeof PORTAL_KEYS)[number];

export const isPortalKey = (name: string): name is PortalKey => (PORTAL_KEYS as readonly string[]).includes(name);
