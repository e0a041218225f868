import type { ErasureReport } from '../../server/privacy/erasure';

/** Each count of an erasure, in plain words: what it is, and where it was kept. */
const WHAT: Record<keyof ErasureReport, string> = {
  requests: 'their requests (table requests)',
  photos: 'photos of those requests (table photos)',
  deliveries: 'mails and webhook deliveries of those requests (table outbox)',
  mailsToThem: 'mails to them about other requests (table outbox)',
  requestsNamingThem: 'other requests naming them as dealer, address taken out (table requests)',
  deliveriesQuotingThem: 'deliveries of those quoting the address, rewritten (table outbox)',
  mailFiles: 'mails kept without SMTP, removed',
};

/**
 * The erasure's report: one line per count, and nothing of the person (an
 * erasure's record must not itself hold the data it erased). `copies`: where
 * mails kept without SMTP are (.eml files in a folder, or a table).
 */
export function eraseReport(counts: ErasureReport, store: string, copies: string): string[] {
  const label = (key: keyof ErasureReport) => (key === 'mailFiles' ? `${WHAT[key]} (${copies})` : WHAT[key]);
  const rows = (Object.keys(WHAT) as (keyof ErasureReport)[]).map((key) => [label(key), counts[key]] as const);
  const width = Math.max(...rows.map(([label]) => label.length));
  const digits = Math.max(...rows.map(([, n]) => String(n).length));
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return [
    total === 0 ? `Nothing was held for this address in ${store}; nothing was erased.` : `Erased from ${store}:`,
    ...rows.map(([label, n]) => `  ${label.padEnd(width)}  ${String(n).padStart(digits)}`),
  ];
}
