import type pg from 'pg';
import type { Reclaimed } from '../port';

/**
 * The tables that hold text about people, written anew (VACUUM FULL: their files replaced) so that no
 * deleted row's bytes stay in them; a plain vacuum frees dead rows but leaves their bytes in the pages
 * it keeps. Photo rows hold no names or addresses: freeing them is enough.
 */
const REWRITTEN = ['requests', 'outbox', 'mail_copies'];
const FREED = ['photos'];

/**
 * How long one try waits for a table's lock. Short: while VACUUM FULL waits for its lock, every submit
 * queues behind it; a backup (pg_dump holds each table it dumps) is waited out by trying again instead.
 */
const LOCK_WAIT_MS = 300;
const PAUSE_MS = 1_000;
/** How long erasure keeps trying before it leaves the rewrite for later (the rows are gone either way). */
const TRY_FOR_MS = 15_000;

/**
 * Held (pg_advisory_lock, two keys) while an erasure rewrites the tables: a submit that meets a table lock
 * while it is held waits the rewrite out instead of failing (request-writer.ts); another holder's lock it does not.
 */
export const REWRITE_LOCK: [number, number] = [7_316_404, 0];

/**
 * Rewrites the tables that held what was erased, on a connection of its own (no statement timeout: a
 * large table takes longer than a request may). A lock it cannot get within TRY_FOR_MS is reported, not
 * thrown: the erasure itself is done, only the space is not yet reclaimed.
 */
export async function reclaimSpace(pool: pg.Pool, tryForMs = TRY_FOR_MS): Promise<Reclaimed> {
  const client = await pool.connect();
  const left = [...REWRITTEN];
  try {
    // Another erasure's rewrite is waited for (no timeout): then this one's finds little to do.
    await client.query('SET lock_timeout = 0; SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1, $2)', REWRITE_LOCK);
    await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
    const deadline = Date.now() + tryForMs;
    while (left.length > 0) {
      try {
        await client.query(`VACUUM FULL ${left[0]}`);
        left.shift();
      } catch (error) {
        if ((error as { code?: unknown }).code !== '55P03') throw error;
        if (Date.now() + PAUSE_MS > deadline) {
          return { done: false, reason: `another session (a backup such as pg_dump?) held table ${left[0]} for longer than ${tryForMs / 1000} s` };
        }
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    }
    for (const table of FREED) await client.query(`VACUUM ${table}`);
    return { done: true };
  } finally {
    // Its settings and its lock are this task's: the connection is closed, not given back to the pool.
    client.release(true);
  }
}
