import pg from 'pg';

// Ids, counts and millisecond times are BIGINT: as numbers, as SQLite gives them (all below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

/**
 * node-postgres emits 'error' on a connection the server ends (pg_terminate_backend, a failover, a restart,
 * a pooler's timeout) whenever no query is running on it; with no listener at that moment (a checked-out
 * connection between two statements, or one being handed out or taken back), that crashes the process.
 * Every connection of ours listens from birth: what it would report, its next query reports, and the pool
 * discards a connection that can no longer take queries when it comes back.
 */
class ListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}

export interface PoolOptions {
  url: string;
  poolSize: number;
  /** Wait for the commit to reach the disk: on for requests; off where losing the last writes costs nothing. */
  durable?: boolean;
}

/**
 * A pool on DATABASE_URL. Every connection commits synchronously (a 201 only
 * after the commit is on disk, whatever the server's default) and gives up
 * on a database that does not answer, so readiness turns red instead of hanging.
 * A lock held elsewhere (LOCK TABLE, a long migration by hand) is waited for
 * 2.5 s, as with SQLite (LOCK_WAIT_MS), then refused with 503 (lock_not_available):
 * a request is answered within seconds, not held for the whole lock.
 */
export function openPool({ url, poolSize, durable = true }: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    Client: ListeningClient,
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    // PostgreSQL's own choice of plans (whatever the server's default): a named statement whose plan cannot
    // depend on the data (a lookup by key, the foreign-key checks) is planned once per connection. Planning
    // each call (force_custom_plan) was 40% of a submit's time in its statements. The statements whose plan
    // does depend on the data (how many rows match: the due deliveries) is planned at each call on purpose: the
    // lease is sent unnamed (PostgresSql.fresh). The submit's own statements keep their plans too, made so that
    // they can only read the mailbox's own day and the photos named (migrations 12 and 13): a generic plan made
    // while the outbox was small read every row (4.6 ms a submit at 40,000), and planning it at each call
    // (migration 10) cost a tenth of a submit's CPU.
    options: `-c synchronous_commit=${durable ? 'on' : 'off'} -c statement_timeout=30000 -c lock_timeout=2500 -c plan_cache_mode=auto`,
  });
  // An idle connection the server drops has left the pool already, which opens another when needed; whether
  // the database itself is gone, the next call tells (DatabaseState).
  pool.on('error', () => {});
  return pool;
}

/** `portal@db.example.com:5432/portal`: the database as people name it, without the password. */
export function describeUrl(url: string): string {
  const { username, hostname, port, pathname } = new URL(url);
  return `${username ? `${decodeURIComponent(username)}@` : ''}${hostname}:${port || 5432}${pathname}`;
}
