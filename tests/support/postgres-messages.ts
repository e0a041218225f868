import { execFileSync } from 'node:child_process';

/**
 * Messages each connection of the given processes to PostgreSQL has sent so far, by its local address
 * (`ss`: the socket's data_segs_out): a statement (or several sent as one text) is one message and waits
 * for its answer, so their growth per call is the round trips per call. Read by the submit bench and the
 * tests that count round trips.
 */
export function postgresMessages(pids: readonly number[]): Map<string, number> {
  const sent = new Map<string, number>();
  const lines = execFileSync('ss', ['-tinpH', '( dport = :5432 )'], { encoding: 'utf8' }).split('\n');
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const owner = /pid=(\d+)/.exec(lines[i])?.[1];
    const segments = /data_segs_out:(\d+)/.exec(lines[i + 1])?.[1];
    if (owner && pids.includes(Number(owner)) && segments) sent.set(lines[i].split(/\s+/)[3], Number(segments));
  }
  return sent;
}
