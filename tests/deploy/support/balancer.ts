/** compose.yaml's balancer as Debian's nginx runs it on the host: its deploy/nginx.conf, upstreams pointed at loopback ports. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Balancer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Runs the server block of `confFile` (what compose mounts into nginx's conf.d) with only these changes:
 * each upstream `<service>:<port>` becomes the loopback address that instance listens on, and `listen 80`
 * becomes the published port on 127.0.0.1. A config that names no such upstream, or that nginx refuses,
 * throws with nginx's own words.
 */
export async function startBalancer(confFile: string, upstreams: Record<string, number>, containerPort: number, listenPort: number): Promise<Balancer> {
  let conf = readFileSync(confFile, 'utf8');
  for (const [service, port] of Object.entries(upstreams)) {
    const named = new RegExp(`(\\bserver\\s+)${service}:${containerPort}\\b`);
    if (!named.test(conf)) throw new Error(`${confFile} has no upstream server ${service}:${containerPort} (compose.yaml's instance on the image's port): the balancer would not reach it`);
    conf = conf.replace(named, `$1127.0.0.1:${port}`);
  }
  if (!/\blisten\s+80;/.test(conf)) throw new Error(`${confFile} does not listen on port 80, which compose.yaml publishes`);
  conf = conf.replace(/\blisten\s+80;/, `listen 127.0.0.1:${listenPort};`);

  const dir = mkdtempSync(join(tmpdir(), 'deploy-nginx-'));
  // nginx's workers run as nobody: their temporary files go here.
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'default.conf'), conf);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/default.conf;
}
`,
  );
  const nginx = '/usr/sbin/nginx';
  const checked = spawnSync(nginx, ['-t', '-q', '-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`nginx refuses ${confFile}: ${checked.stderr.trim()}`);
  const child: ChildProcess = spawn(nginx, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], { stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${listenPort}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${readFileSync(`${dir}/error.log`, 'utf8').trim()}`);
    if (await fetch(`${baseUrl}/readyz`).then(() => true, () => false)) break;
    if (i > 100) throw new Error(`nginx does not answer on ${baseUrl}`);
    await sleep(100);
  }
  return {
    baseUrl,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
