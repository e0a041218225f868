/** podman as the deployment tests drive it (tests/deploy/run.ts builds, the tests run). */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

export const IMAGE = 'localhost/repair-portal:deploy-test';
export const PREVIOUS_IMAGE = 'localhost/repair-portal:deploy-previous';
/** What every container and volume of these tests carries, so that a run removes what an interrupted one left. */
export const LABEL = 'repair-portal-deploy-test';

// crun refuses this machine's hybrid cgroups; runc runs.
const RUNTIME = ['--runtime', 'runc'];

const files = Math.min(Number(execFileSync('sh', ['-c', 'ulimit -Hn']).toString().trim()) || 65536, 65536);

/** Within what root may set here: podman's defaults are above them, and raising RLIMIT_NPROC needs CAP_SYS_RESOURCE, which this root lacks. */
export const ULIMITS = ['--ulimit', `nofile=${files}:${files}`, '--ulimit', 'nproc=4096:4096'];

/** podman's output; throws with its own words when it fails. */
export function podman(args: readonly string[]): string {
  const run = spawnSync('podman', [...RUNTIME, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`podman ${args.slice(0, 2).join(' ')}: ${run.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return run.stdout;
}

/** podman while the caller's event loop goes on (its servers keep answering the container); throws when it fails. */
export async function podmanAsync(args: readonly string[]): Promise<string> {
  try {
    return (await promisify(execFile)('podman', [...RUNTIME, ...args], { maxBuffer: 64 << 20 })).stdout;
  } catch (error) {
    throw new Error(`podman ${args.slice(0, 2).join(' ')}: ${String((error as { stderr?: string }).stderr ?? error).trim()}`);
  }
}

/** podman that may fail: its status and output. */
export function podmanTry(args: readonly string[], timeoutMs?: number): { ok: boolean; stdout: string; stderr: string } {
  const run = spawnSync('podman', [...RUNTIME, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: timeoutMs });
  return { ok: run.status === 0, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

/** Removes every container and volume these tests made (an interrupted run's too). */
export function removeLeftovers(): void {
  for (const id of podman(['ps', '-aq', '--filter', `label=${LABEL}`]).split('\n').filter(Boolean)) podmanTry(['rm', '-f', '-v', id]);
  for (const name of podman(['volume', 'ls', '-q', '--filter', `label=${LABEL}`]).split('\n').filter(Boolean)) podmanTry(['volume', 'rm', '-f', name]);
}

/** The port the image's server listens on unless told otherwise (its ENV PORT), which nginx.conf's upstreams name. */
export function imagePort(image = IMAGE): number {
  const [inspected] = JSON.parse(podman(['image', 'inspect', image])) as { Config: { Env: string[] } }[];
  return Number(inspected.Config.Env.find((e) => e.startsWith('PORT='))?.slice('PORT='.length));
}
