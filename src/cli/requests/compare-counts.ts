import type { PhotoRow } from '../../server/storage/records';
import type { MovedCounts, Transfer } from '../../server/storage/transfer';

/**
 * The check after `migrate-to-postgres`: counts of what SQLite holds and of
 * the same requests and photos in PostgreSQL, as a table, and whether they agree.
 */

/** What the photo files on disk hold: the photos without a file (not moved), and the size of those present. */
export interface PhotoFiles {
  missing: PhotoRow[];
  presentBytes: number;
}

/** What is compared after the move, on each side, for the SQLite database's requests and unclaimed photos. */
interface Counts extends MovedCounts {
  unclaimedPhotos: number;
  photoBytes: number;
}

/** References compared per query. */
const PAGE = 1000;

/**
 * Counts both sides for what SQLite holds (PostgreSQL may hold more: requests
 * taken since), prints them as a table, and says whether they agree.
 */
export async function verify(source: Transfer, target: Transfer, files: PhotoFiles): Promise<boolean> {
  const expected = await countsOf(source, source);
  expected.claimedPhotos -= files.missing.filter((p) => p.request_id !== null).length;
  expected.unclaimedPhotos -= files.missing.filter((p) => p.request_id === null).length;
  expected.photoBytes = files.presentBytes;
  const moved = await countsOf(source, target);
  const absent: string[] = [];
  for await (const references of pages(source, 'references')) {
    const held = new Set(await target.held('references', references));
    absent.push(...references.filter((r) => !held.has(r)));
  }
  const rows = Object.keys(expected) as (keyof Counts)[];
  const ok = absent.length === 0 && rows.every((row) => expected[row] === moved[row]);
  console.log(formatTable(expected, moved));
  console.log(`references missing in PostgreSQL: ${absent.length}${absent.length ? ` (${absent.slice(0, 10).join(', ')}${absent.length > 10 ? ', …' : ''})` : ''}`);
  console.log(ok ? 'verified: PostgreSQL holds everything moved' : 'MISMATCH: run again (requests already there are skipped); if it persists, see docs/postgresql.md');
  return ok;
}

/** The counts on `side` for the source's references and unclaimed photo names, read in pages. */
async function countsOf(source: Transfer, side: Transfer): Promise<Counts> {
  const sum: Counts = { requests: 0, claimedPhotos: 0, unclaimedPhotos: 0, photoBytes: 0, deliveries: 0, sent: 0, failed: 0, pending: 0 };
  const onTarget = side !== source;
  for await (const references of pages(source, 'references')) {
    const page = await side.countsFor(references);
    for (const key of ['requests', 'claimedPhotos', 'deliveries', 'sent', 'failed', 'pending'] as const) sum[key] += page[key];
  }
  if (onTarget) {
    const claimed = (await source.photoRows()).filter((p) => p.request_id !== null).map((p) => p.name);
    for (let at = 0; at < claimed.length; at += PAGE) sum.photoBytes += await side.photoBytes(await side.held('photos', claimed.slice(at, at + PAGE)));
  }
  for await (const names of pages(source, 'unclaimed-photos')) {
    const held = await side.held('photos', names);
    sum.unclaimedPhotos += held.length;
    if (onTarget) sum.photoBytes += await side.photoBytes(held);
  }
  return sum;
}

/** The keys of a side, a page at a time. */
async function* pages(side: Transfer, of: 'references' | 'unclaimed-photos'): AsyncGenerator<string[]> {
  for (let after = ''; ; ) {
    const keys = await side.keysAfter(of, after, PAGE);
    if (keys.length > 0) yield keys;
    if (keys.length < PAGE) return;
    after = keys[keys.length - 1];
  }
}

const LABELS: Record<keyof Counts, string> = {
  requests: 'requests',
  claimedPhotos: 'photos of requests',
  unclaimedPhotos: 'unclaimed photos',
  photoBytes: 'photo bytes',
  deliveries: 'deliveries (outbox)',
  sent: '  sent',
  failed: '  failed for good',
  pending: '  pending',
};

function formatTable(expected: Counts, moved: Counts): string {
  const line = (label: string, a: string | number, b: string | number, mark: string) =>
    `${label.padEnd(20)}${String(a).padStart(12)}${String(b).padStart(12)}  ${mark}`;
  return [
    line('', 'SQLite', 'PostgreSQL', ''),
    ...(Object.keys(LABELS) as (keyof Counts)[]).map((k) => line(LABELS[k], expected[k], moved[k], expected[k] === moved[k] ? 'ok' : 'MISMATCH')),
  ].join('\n');
}
