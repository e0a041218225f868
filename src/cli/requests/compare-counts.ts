import { textsIn, type Sql } from '../../server/storage/sql';

/**
 * The check after `migrate-to-postgres`: counts of what SQLite holds and of
 * the same requests and photos in PostgreSQL, as a table, and whether they agree.
 */

/** What the photo files on disk hold: the photos without a file (not moved), and the size of those present. */
export interface PhotoFiles {
  missing: { name: string; request_id: number | null }[];
  presentBytes: number;
}

/** What is compared after the move, on each side, for the SQLite database's requests and unclaimed photos. */
interface Counts {
  requests: number;
  claimedPhotos: number;
  unclaimedPhotos: number;
  photoBytes: number;
  deliveries: number;
  sent: number;
  failed: number;
  pending: number;
}

/** References compared per query. */
const PAGE = 1000;

/**
 * Counts both sides for what SQLite holds (PostgreSQL may hold more: requests
 * taken since), prints them as a table, and says whether they agree.
 */
export async function verify(source: Sql, target: Sql, files: PhotoFiles): Promise<boolean> {
  const expected = await countsOf(source, source);
  expected.claimedPhotos -= files.missing.filter((p) => p.request_id !== null).length;
  expected.unclaimedPhotos -= files.missing.filter((p) => p.request_id === null).length;
  expected.photoBytes = files.presentBytes;
  const moved = await countsOf(source, target);
  const absent = await referencesMissing(source, target);
  const rows = Object.keys(expected) as (keyof Counts)[];
  const ok = absent.length === 0 && rows.every((row) => expected[row] === moved[row]);
  console.log(formatTable(expected, moved));
  console.log(`references missing in PostgreSQL: ${absent.length}${absent.length ? ` (${absent.slice(0, 10).join(', ')}${absent.length > 10 ? ', …' : ''})` : ''}`);
  console.log(ok ? 'verified: PostgreSQL holds everything moved' : 'MISMATCH: run again (requests already there are skipped); if it persists, see docs/postgresql.md');
  return ok;
}

/** The counts on `side` for SQLite's references and unclaimed photo names, read in pages. */
async function countsOf(source: Sql, side: Sql): Promise<Counts> {
  const sum: Counts = { requests: 0, claimedPhotos: 0, unclaimedPhotos: 0, photoBytes: 0, deliveries: 0, sent: 0, failed: 0, pending: 0 };
  const onRequests = side.dialect === 'postgres' ? photoBytesOf(side, (keys) => `request_id IN (SELECT id FROM requests WHERE reference IN ${keys})`) : undefined;
  for await (const references of pages(source, 'SELECT reference AS key FROM requests WHERE reference > ? ORDER BY reference LIMIT ?')) {
    const [page] = await side.all<Omit<Counts, 'unclaimedPhotos' | 'photoBytes'>>(
      `WITH moved AS (SELECT id FROM requests WHERE reference IN ${textsIn(side)}),
            mail AS (SELECT sent_at, failed_at FROM outbox WHERE request_id IN (SELECT id FROM moved))
       SELECT (SELECT count(*) FROM moved) AS requests,
              (SELECT count(*) FROM photos WHERE request_id IN (SELECT id FROM moved)) AS "claimedPhotos",
              (SELECT count(*) FROM mail) AS deliveries,
              (SELECT count(*) FROM mail WHERE sent_at IS NOT NULL) AS sent,
              (SELECT count(*) FROM mail WHERE sent_at IS NULL AND failed_at IS NOT NULL) AS failed,
              (SELECT count(*) FROM mail WHERE sent_at IS NULL AND failed_at IS NULL) AS pending`,
      [JSON.stringify(references)],
    );
    for (const key of ['requests', 'claimedPhotos', 'deliveries', 'sent', 'failed', 'pending'] as const) sum[key] += page[key];
    if (onRequests) sum.photoBytes += await onRequests(references);
  }
  const onNames = side.dialect === 'postgres' ? photoBytesOf(side, (keys) => `name IN ${keys}`) : undefined;
  for await (const names of pages(source, 'SELECT name AS key FROM photos WHERE request_id IS NULL AND name > ? ORDER BY name LIMIT ?')) {
    const [page] = await side.all<{ n: number }>(`SELECT count(*) AS n FROM photos WHERE name IN ${textsIn(side)}`, [JSON.stringify(names)]);
    sum.unclaimedPhotos += page.n;
    if (onNames) sum.photoBytes += await onNames(names);
  }
  return sum;
}

/** The bytes PostgreSQL holds for the photos `where` picks from a page of keys (SQLite's are counted on disk). */
function photoBytesOf(target: Sql, where: (keys: string) => string): (keys: string[]) => Promise<number> {
  return async (keys) => {
    const [row] = await target.all<{ n: number }>(
      `SELECT CAST(coalesce(sum(octet_length(data)), 0) AS BIGINT) AS n FROM photos WHERE ${where(textsIn(target))}`,
      [JSON.stringify(keys)],
    );
    return row.n;
  };
}

/** SQLite's references that PostgreSQL does not have. */
async function referencesMissing(source: Sql, target: Sql): Promise<string[]> {
  const absent: string[] = [];
  for await (const references of pages(source, 'SELECT reference AS key FROM requests WHERE reference > ? ORDER BY reference LIMIT ?')) {
    const found = new Set(
      (await target.all<{ reference: string }>(`SELECT reference FROM requests WHERE reference IN ${textsIn(target)}`, [JSON.stringify(references)])).map(
        (r) => r.reference,
      ),
    );
    absent.push(...references.filter((r) => !found.has(r)));
  }
  return absent;
}

/** The keys a query lists, a page at a time (`key > ? … LIMIT ?`). */
async function* pages(sql: Sql, query: string): AsyncGenerator<string[]> {
  for (let after = ''; ; ) {
    const keys = (await sql.all<{ key: string }>(query, [after, PAGE])).map((r) => r.key);
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
