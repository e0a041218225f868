import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src/server/photos/fair-queue';

/** A task that runs until the test finishes it, recording when it started. */
function controlled(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => (started.push(name), done), finish: () => finish() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('FairQueue', () => {
  it('gives the next free slot to another client rather than to the flood queued first', async () => {
    const queue = new FairQueue({ concurrency: 1, perClient: 4, total: 64 });
    const started: string[] = [];
    const flood = ['a1', 'a2', 'a3', 'a4'].map((name) => controlled(started, name));
    const floodRuns = flood.map((t) => queue.run('flooder', t.task));
    const small = controlled(started, 'b1');
    const smallRun = queue.run('visitor', small.task);
    expect(started).toEqual(['a1']);

    flood[0].finish();
    await tick();
    // One queue in arrival order would start a2 here.
    expect(started).toEqual(['a1', 'b1']);
    small.finish();
    await smallRun;
    for (const t of flood.slice(1)) {
      await tick();
      t.finish();
    }
    await Promise.all(floodRuns);
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('refuses a client past its share, and everyone past the total, with 503 at once', async () => {
    const queue = new FairQueue({ concurrency: 1, perClient: 2, total: 3 });
    const started: string[] = [];
    const held = ['a1', 'a2', 'b1'].map((name) => controlled(started, name));
    const runs = [queue.run('a', held[0].task), queue.run('a', held[1].task), queue.run('b', held[2].task)];
    await expect(queue.run('a', controlled(started, 'a3').task)).rejects.toMatchObject({ statusCode: 503 });
    await expect(queue.run('c', controlled(started, 'c1').task)).rejects.toMatchObject({ statusCode: 503 });
    for (const t of held) {
      t.finish();
      await tick();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });
});
