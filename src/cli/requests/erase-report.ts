/** What each count of the erasure (privacy/personal-data.ts) is, in plain words; a count not named here shows under its own key. */
const WHAT: Record<string, string> = {
  requests: 'requests (table requests)',
  photos: 'photos (table photos, with their bytes)',
  mails: 'mails and webhook deliveries (table outbox)',
  files: 'mail files (.eml in DATA_DIR/outbox)',
};

/**
 * The erasure's report: one line per count, and nothing of the person (an
 * erasure's record must not itself hold the data it erased).
 */
export function eraseReport(counts: Record<string, number>, store: string): string[] {
  const rows = Object.entries(counts).map(([key, n]) => [WHAT[key] ?? key, n] as const);
  const width = Math.max(...rows.map(([label]) => label.length));
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return [
    total === 0 ? `Nothing was held for this address in ${store}; nothing was erased.` : `Erased from ${store}:`,
    ...rows.map(([label, n]) => `  ${label.padEnd(width)}  ${String(n).padStart(6)}`),
  ];
}
