/**
 * compose.yaml as docker-compose itself reads it (`docker-compose config`: interpolated, anchors merged),
 * and its services turned into what the tests run on the host network: the file the operator runs is
 * the file the tests take their settings from.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | null>;
  volumes?: (string | { source: string; target: string; type: string })[];
  ports?: (string | { published: number | string; target: number })[];
  stop_grace_period?: string;
  healthcheck?: unknown;
  depends_on?: Record<string, { condition: string }> | string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
}

export interface ComposeConfig {
  services: Record<string, ComposeService>;
  networks?: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
}

/** The README's Docker Compose commands: the code block after the heading "### With Docker Compose". */
export function readmeComposeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /^### With Docker Compose\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no "### With Docker Compose" section with a sh block of the commands an operator runs');
  return block.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
}

/**
 * `docker-compose config` of compose.yaml with the `.env` the README's first command writes, `without`
 * one of its variables if given; the parsed config, or docker-compose's refusal.
 */
export function composeConfig({ without, env = {} }: { without?: string; env?: Record<string, string> } = {}): { ok: boolean; config?: ComposeConfig; message: string } {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-compose-'));
  try {
    const [writeEnv] = readmeComposeCommands();
    const wrote = spawnSync('sh', ['-c', writeEnv], { cwd: dir, encoding: 'utf8' });
    if (wrote.status !== 0) throw new Error(`the README's first compose command failed: ${writeEnv}\n${wrote.stderr}`);
    const lines = readFileSync(join(dir, '.env'), 'utf8').split('\n');
    writeFileSync(join(dir, '.env'), lines.filter((line) => without === undefined || !line.startsWith(`${without}=`)).join('\n'));
    // Only PATH from this process: a variable of the machine's must not stand in for the .env file.
    const run = spawnSync('docker-compose', ['--project-directory', ROOT, '-f', join(ROOT, 'compose.yaml'), '--env-file', join(dir, '.env'), 'config'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    });
    if (run.status !== 0) return { ok: false, message: `${run.stderr}${run.stdout}`.trim() };
    const json = spawnSync('python3', ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'], { input: run.stdout, encoding: 'utf8' });
    if (json.status !== 0) throw new Error(`the config docker-compose printed is not YAML python3 reads: ${json.stderr}`);
    return { ok: true, config: JSON.parse(json.stdout) as ComposeConfig, message: run.stderr.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The services built from this project's Dockerfile: the portal's instances. */
export function portalServices(config: ComposeConfig): [string, ComposeService][] {
  return Object.entries(config.services).filter(([, s]) => s.build !== undefined);
}

/** A duration as compose writes it (`30s`, `1m30s`) in whole seconds; compose's default is 10 s. */
export function graceSeconds(service: ComposeService): number {
  const text = service.stop_grace_period ?? '10s';
  let seconds = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)) seconds += Number(n) * { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 }[unit as 'h']!;
  if (seconds === 0) throw new Error(`stop_grace_period ${text} is no duration compose knows`);
  return Math.ceil(seconds);
}

/** What a service mounts at `target`: a named volume, or a host file's path. */
export function mountSource(service: ComposeService, target: string): string | undefined {
  for (const volume of service.volumes ?? []) {
    if (typeof volume === 'string') {
      const [source, mountedAt] = volume.split(':');
      if (mountedAt === target) return source;
    } else if (volume.target === target) return volume.source;
  }
  return undefined;
}

/** The host port a service publishes for its container port `target`. */
export function publishedPort(service: ComposeService, target: number): number | undefined {
  for (const port of service.ports ?? []) {
    if (typeof port === 'string') {
      const [published, inner] = port.split(':').slice(-2);
      if (Number(inner) === target) return Number(published);
    } else if (Number(port.target) === target) return Number(port.published);
  }
  return undefined;
}
