import { Worker } from 'node:worker_threads';

/** The worker's code: GET `url` over and over, `pause` ms apart, until told to stop; then post the latencies. */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, pause } = workerData;
let going = true;
const latencies = [];
parentPort.once('message', () => (going = false));
(async () => {
  while (going) {
    const start = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    latencies.push(res.ok ? performance.now() - start : Infinity);
    await new Promise((r) => setTimeout(r, pause));
  }
  parentPort.postMessage(latencies);
})();
`;

/**
 * Measures how long `url` takes to answer, from a thread of its own: what the test's own clients do on
 * its main thread (sending bodies, reading answers) does not delay the probe. A failed answer counts as
 * Infinity. `stop` resolves to every latency in ms.
 */
export function startLatencyProbe(url: string, pause = 5): { stop(): Promise<number[]> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { url, pause } });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const latencies = await done;
      await worker.terminate();
      return latencies;
    },
  };
}

/** The 99th percentile of samples. */
export const p99 = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))];
