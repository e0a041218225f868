import type { GatedTally, Tally } from './port';

/** A tally's gated counts: its own where it has them (one round trip), else its calls one after the other. */
export function gatedTally(tally: Tally): GatedTally {
  if (tally.gated) return tally.gated;
  return async (gate, then, now) => {
    const { count } = await tally(gate.key, gate.amount, gate.windowMs, now);
    const counts: (number | undefined)[] = [];
    for (const c of then) counts.push(count <= c.gateAtMost ? (await tally(c.key, c.amount, c.windowMs, now)).count : undefined);
    return { gate: count, then: counts };
  };
}
