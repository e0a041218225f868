import { GroupCommit, plainError } from '../group-commit';
import type { GatedCount, Outcome, Tally } from '../port';
import type { PostgresSql } from './postgres-sql';

/** Expired counters are removed every this many hits, so the table holds only live windows. */
const PRUNE_EVERY = 1000;

/** Adds to a counter in rate_limits (`now` its placeholder): a window that has ended starts again. */
const add = (now: string) => `ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN rate_limits.reset_at <= ${now} THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
  reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END`;

/**
 * One round's counts, in one statement: the gates first (keys in one order), then each count that the
 * gate's count its own call reached allows: the gate's final count less the amounts of the calls after
 * it. The json aggregate takes every gate's row before a single count after them is made.
 */
const COUNT = `WITH c AS (
    SELECT * FROM json_to_recordset($1::json) AS c(i int, key text, amount bigint, window_ms bigint)
  ), g AS (
    INSERT INTO rate_limits (key, hits, reset_at)
    SELECT c.key, sum(c.amount), $3 + (array_agg(c.window_ms ORDER BY c.i))[1]
    FROM c GROUP BY c.key ORDER BY c.key COLLATE "C"
    ${add('$3')} RETURNING key, hits, reset_at
  ), gates AS (
    SELECT coalesce(json_object_agg(key, json_build_array(hits, reset_at)), '{}') AS counted FROM g
  ), reached AS (
    SELECT c.i, (gates.counted -> c.key ->> 0)::bigint
      - coalesce(sum(c.amount) OVER (PARTITION BY c.key ORDER BY c.i DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS gate
    FROM c, gates
  ), t AS (
    INSERT INTO rate_limits (key, hits, reset_at)
    SELECT s.key, sum(s.amount), $3 + (array_agg(s.window_ms ORDER BY s.i))[1]
    FROM json_to_recordset($2::json) AS s(i int, key text, amount bigint, window_ms bigint, gate_at_most bigint)
    JOIN reached ON reached.i = s.i AND reached.gate <= s.gate_at_most
    GROUP BY s.key ORDER BY s.key COLLATE "C"
    ${add('$3')} RETURNING key, hits
  )
  SELECT (SELECT counted FROM gates) AS gates, coalesce((SELECT json_object_agg(key, hits) FROM t), '{}') AS counted`;

/** A call waiting for its turn's statement: a plain hit is a gate with nothing after it. `now` undefined counts it at the statement's time. */
interface Call {
  gate: { key: string; amount: number; windowMs: number };
  then: readonly GatedCount[];
  now: number | undefined;
}

/** A round's statement's answer: each gate's count and window end, and each count after a gate. */
interface Row {
  gates: Record<string, [number, number]>;
  counted: Record<string, number>;
}

/** A round that failed, as its calls and the turn's later rounds on its keys are told. */
type Failure = Extract<Outcome<never>, { ok: false }>;

/** What a call is told: its gate's count and window end, and its counts after the gate (undefined where not allowed). */
interface Counted {
  gate: number;
  resetAt: number;
  then: (number | undefined)[];
}

/** Where a statement's locks start and end: its last gate, and its first count after a gate (none for plain hits alone). */
interface LockSpan {
  lastGate?: string;
  firstCount?: string;
}

/** Calls counted in one statement: one clock, no key both a gate and a count after one, every gate before every count in the lock order. */
interface Round extends LockSpan {
  now: number;
  calls: number[];
  gates: Set<string>;
  counts: Set<string>;
}

/** PostgreSQL's "C" collation: the keys' UTF-8 bytes. */
const before = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;
const first = (a: string | undefined, b: string | undefined) => (a === undefined || (b !== undefined && before(b, a)) ? b : a);
const last = (a: string | undefined, b: string) => (a !== undefined && before(b, a) ? a : b);

/**
 * The calls of one turn as rounds, each one statement: a call joins the first round, from the last one
 * that holds any of its keys (so each key's calls are counted in call order), whose rule it keeps. With
 * one clock and keys that sort every gate before every count (the mail cap's do), a turn is one round.
 */
function rounds(calls: readonly Call[], flushedAt: number): Round[] {
  const all: Round[] = [];
  const lastRoundOf = new Map<string, number>();
  for (const [i, { gate, then, now = flushedAt }] of calls.entries()) {
    const counts = then.map((c) => c.key);
    const keys = [gate.key, ...counts];
    const firstCount = counts.reduce(first, undefined);
    // The round's span with this call in it, where the call may join it.
    const joined = (r: Round): LockSpan | undefined => {
      if (r.now !== now || r.counts.has(gate.key) || counts.some((k) => r.gates.has(k))) return undefined;
      const span = { lastGate: last(r.lastGate, gate.key), firstCount: first(r.firstCount, firstCount) };
      return span.firstCount === undefined || before(span.lastGate, span.firstCount) ? span : undefined;
    };
    let n = Math.max(0, ...keys.map((k) => lastRoundOf.get(k) ?? 0));
    let span: LockSpan | undefined;
    while (n < all.length && (span = joined(all[n])) === undefined) n++;
    if (n === all.length) all.push({ now, calls: [], gates: new Set(), counts: new Set(), lastGate: gate.key, firstCount });
    const round = Object.assign(all[n], span);
    round.calls.push(i);
    round.gates.add(gate.key);
    for (const k of counts) round.counts.add(k);
    for (const k of keys) lastRoundOf.set(k, n);
  }
  return all;
}

/**
 * Counters every instance shares, each in a fixed window (the rate limits,
 * the mail cap): one row per key in rate_limits. `sql` should be a pool that
 * commits without waiting for the disk: losing a count in a crash costs
 * nothing, and a hit must not wait for an fsync. The calls of one event-loop
 * turn, plain and gated, are counted in one statement (a round trip each was
 * a third of a submit's), every caller told the counts its own call reached,
 * as calls one after the other would be; a statement that fails fails only
 * the calls it counted, and those of the turn's later statements that share a
 * key with it, unsent (they would wait on the same locked row, a lock timeout
 * each). Every statement locks its rows in one order, so instances never wait
 * on each other in a ring.
 */
export function postgresTally(sql: PostgresSql): Tally {
  let hits = 0;
  const prune = async (now: number, amount: number) => {
    const earlier = hits;
    hits += amount;
    if (Math.floor(hits / PRUNE_EVERY) > Math.floor(earlier / PRUNE_EVERY)) await sql.run('DELETE FROM rate_limits WHERE reset_at <= ?', [now]);
  };
  const count = async (batch: Call[]): Promise<Outcome<Counted>[]> => {
    const flushedAt = Date.now();
    await prune(flushedAt, batch.length);
    const answers: Outcome<Counted>[] = [];
    // Keys a failed round could not count, and why: a later round with one of them would wait on the same row.
    const failed = new Map<string, Failure>();
    for (const { now, calls, gates: gateKeys, counts } of rounds(batch, flushedAt)) {
      const keys = [...gateKeys, ...counts];
      const sent: Outcome<Row> =
        keys.map((k) => failed.get(k)).find((f) => f !== undefined) ??
        (await sql
          .all<Row>(COUNT, [
            JSON.stringify(calls.map((i) => ({ i, key: batch[i].gate.key, amount: batch[i].gate.amount, window_ms: batch[i].gate.windowMs }))),
            JSON.stringify(calls.flatMap((i) => batch[i].then.map((c) => ({ i, key: c.key, amount: c.amount, window_ms: c.windowMs, gate_at_most: c.gateAtMost })))),
            now,
          ])
          .then(
            ([row]) => ({ ok: true as const, value: row }),
            (error: unknown) => ({ ok: false as const, error: plainError(error) }),
          ));
      if (!sent.ok) {
        // This round failed, or was not sent (an earlier one failed on its keys): none of its calls was counted. The
        // rounds before were, and their callers are told so.
        for (const i of calls) answers[i] = sent;
        for (const k of keys) failed.set(k, sent);
        continue;
      }
      const row = sent.value;
      // Each call reached its keys' final counts less the amounts of the round's calls after it, as the statement reckons its gates.
      const gates = new Map(Object.entries(row.gates).map(([key, [hits, resetAt]]) => [key, { hits: Number(hits), resetAt: Number(resetAt) }]));
      const counted = new Map(Object.entries(row.counted).map(([key, hits]) => [key, Number(hits)]));
      for (const i of calls.toReversed()) {
        const { gate, then } = batch[i];
        const reached = gates.get(gate.key);
        if (reached === undefined) {
          answers[i] = { ok: false, error: { message: `no count came back for ${gate.key}` } };
          continue;
        }
        const after = then.map((c) => {
          const hitsOf = counted.get(c.key);
          if (reached.hits > c.gateAtMost || hitsOf === undefined) return undefined;
          counted.set(c.key, hitsOf - c.amount);
          return hitsOf;
        });
        answers[i] = { ok: true, value: { gate: reached.hits, resetAt: reached.resetAt, then: after } };
        reached.hits -= gate.amount;
      }
    }
    return answers;
  };
  const turn = new GroupCommit<Call, Counted>(count);
  const tally: Tally = async (key, amount, windowMs, now) => {
    const { gate, resetAt } = await turn.submit({ gate: { key, amount, windowMs }, then: [], now });
    return { count: gate, resetAt };
  };
  tally.gated = async (gate, then, now) => {
    const { gate: reached, then: after } = await turn.submit({ gate, then, now });
    return { gate: reached, then: after };
  };
  return tally;
}
