// npm run test:deploy (tsx): the Dockerfile, deploy/nginx.conf and compose.yaml, built and run on this
// machine, on the host network only (tests/deploy/*.spec.ts say what each proves). Here:
//   1. Debian's podman, runc, mmdebstrap, nginx and docker-compose, installed when missing;
//   2. the base: the real node:24-bookworm-slim when it can be pulled, otherwise a stand-in
//      (tests/deploy/stand-in: mmdebstrap's bookworm minbase, this Node 24 and its npm);
//   3. the unchanged Dockerfile built twice: this tree, and the previous commit's (the rolling upgrade);
//   4. the tests, with the times of 2 and 3 printed at the end.
// A machine that cannot run containers is told in one line, and nothing is tested.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE, PREVIOUS_IMAGE, podman, podmanTry, removeLeftovers, ULIMITS } from './support/podman';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASE = 'docker.io/library/node:24-bookworm-slim';
const MINBASE = 'localhost/repair-portal-deploy/debian-minbase:bookworm';
const asRoot = (command: string[]) =>
  execFileSync(process.getuid?.() === 0 ? command[0] : 'sudo', process.getuid?.() === 0 ? command.slice(1) : command, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'inherit' });
const say = (line: string) => console.log(`test:deploy: ${line}`);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

function timed(what: string, action: () => void): [string, number] {
  const started = Date.now();
  action();
  return [what, Math.round((Date.now() - started) / 1000)];
}

// 1. Debian's tools, when missing.
const tools = { podman: 'podman', runc: 'runc', mmdebstrap: 'mmdebstrap', nginx: 'nginx', 'docker-compose': 'docker-compose' };
const missing = Object.entries(tools).filter(([command]) => !has(command) && !existsSync(`/usr/sbin/${command}`)).map(([, pkg]) => pkg);
if (missing.length > 0) {
  say(`installing ${missing.join(', ')} from Debian's packages`);
  asRoot(['apt-get', 'update', '-qq']);
  asRoot(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

/** Ends the run, saying so in one line, where podman cannot start a container of `image`. */
function requireContainers(image: string): void {
  const probe = podmanTry(['run', '--rm', '--network', 'host', ...ULIMITS, image, 'true']);
  if (probe.ok) return;
  say(`this machine cannot run containers (${(probe.stderr.trim().split('\n').at(-1) ?? '').slice(0, 200)}): nothing was tested`);
  process.exit(0);
}

removeLeftovers();

const times: [string, number][] = [];

// 2. The base.
const pulled = podmanTry(['pull', '-q', BASE], 120_000);
if (pulled.ok) {
  say(`${BASE} pulled`);
  requireContainers(BASE);
} else {
  const work = mkdtempSync(join(tmpdir(), 'deploy-base-'));
  try {
    times.push(
      timed('base (mmdebstrap minbase and the stand-in)', () => {
        execFileSync('mmdebstrap', ['--quiet', '--variant=minbase', 'bookworm', join(work, 'minbase.tar'), 'http://deb.debian.org/debian'], { stdio: 'inherit' });
        podman(['import', join(work, 'minbase.tar'), MINBASE]);
        requireContainers(MINBASE);
        const context = join(work, 'context');
        cpSync(join(ROOT, 'tests/deploy/stand-in'), context, { recursive: true });
        if (!process.version.startsWith('v24.')) throw new Error(`the stand-in takes this Node, which must be 24 (the Dockerfile's line): it is ${process.version}`);
        cpSync(process.execPath, join(context, 'node'));
        const npmCli = process.env.npm_execpath;
        if (!npmCli) throw new Error('run this with npm run test:deploy: the stand-in takes the npm that runs it');
        cpSync(dirname(dirname(npmCli)), join(context, 'npm'), { recursive: true });
        const built = podmanTry(['build', '-q', '--format', 'docker', ...ULIMITS, '--build-arg', `DEBIAN_BASE=${MINBASE}`, '--build-arg', `NODE_VERSION=${process.version.slice(1)}`, '-t', BASE, context]);
        if (!built.ok) throw new Error(`the stand-in for ${BASE} did not build:\n${built.stderr}`);
      }),
    );
    say(`${BASE} cannot be pulled here (${pulled.stderr.trim().split('\n').at(-1)?.slice(0, 240)}): built the stand-in`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// 3. The image: the Dockerfile as it is. The host's CA bundle and registry reach the build's npm ci, as an
// operator behind a proxy gives them; --format docker keeps the HEALTHCHECK, which the OCI format drops.
const scratch = mkdtempSync(join(tmpdir(), 'deploy-build-'));
const caBundle = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
const registry = execFileSync('npm', ['config', 'get', 'registry']).toString().trim();
writeFileSync(join(scratch, 'npmrc'), `registry=${registry}\n${existsSync(caBundle) ? 'cafile=/etc/ssl/certs/host-ca.crt\n' : ''}`);
const buildMounts = ['-v', `${join(scratch, 'npmrc')}:/usr/local/etc/npmrc:ro`, ...(existsSync(caBundle) ? ['-v', `${caBundle}:/etc/ssl/certs/host-ca.crt:ro`] : [])];

function buildImage(context: string, tag: string) {
  const built = podmanTry(['build', '--format', 'docker', '--network', 'host', ...ULIMITS, ...buildMounts, '-t', tag, context]);
  if (!built.ok) {
    const lines = `${built.stdout}\n${built.stderr}`.trim().split('\n');
    throw new Error(`the Dockerfile did not build (${context}):\n${lines.slice(-30).join('\n')}`);
  }
}

const previous = mkdtempSync(join(tmpdir(), 'deploy-previous-'));
try {
  times.push(timed('image', () => buildImage(ROOT, IMAGE)));
  // The previous commit, as it was committed: what a rolling upgrade replaces (none in a clone of one commit).
  podmanTry(['rmi', '-f', PREVIOUS_IMAGE]);
  if (spawnSync('git', ['-C', ROOT, 'rev-parse', '--verify', '-q', 'HEAD~1']).status === 0) {
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive HEAD~1 | tar -x -C "${previous}"`]);
    times.push(timed("previous commit's image", () => buildImage(previous, PREVIOUS_IMAGE)));
  } else {
    say('no previous commit here: the rolling upgrade is not tested');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
}

// 4. The tests.
const started = Date.now();
const tests = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.deploy.config.ts'], { cwd: ROOT, stdio: 'inherit', env: process.env });
times.push(['tests', Math.round((Date.now() - started) / 1000)]);
// The build stages' images, untagged: each run would otherwise leave about a gigabyte of them.
podmanTry(['image', 'prune', '-f']);
say(times.map(([what, s]) => `${what} ${s} s`).join(', '));
process.exit(tests.status ?? 1);
