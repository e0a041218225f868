/**
 * On a Node.js line the portal does not support, every entry point says so in
 * one line and exits, instead of failing later (node:sqlite is missing on 20).
 * Run with an older Node where the machine has one (the CI machines ship 20).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';
const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
const oldVersion = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout?.trim();
const haveOldNode = Boolean(oldVersion) && semver.lt(oldVersion, semver.minVersion(engines)!);

describe.runIf(haveOldNode)(`on an unsupported Node (${oldVersion || 'none found'})`, () => {
  const entries = [
    ['npm start', ['src/cli/npm-start.mjs']],
    ['npm test', ['src/cli/supported-node.mjs']],
    ['the staff commands', ['--import', 'tsx', 'src/cli/requests.ts', 'deliveries']],
  ] as const;

  for (const [name, args] of entries) {
    it(`${name} prints the supported lines in one line and exits 1`, () => {
      const run = spawnSync(OLD_NODE, args, { encoding: 'utf8', env: { ...process.env, DATA_DIR: '/nonexistent' } });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines).toEqual([`Node.js ${oldVersion} is not supported: the portal runs on Node.js 22 (22.13 or newer), 24 or 26.`]);
    });
  }
});

describe('on this Node', () => {
  it('the check passes silently', () => {
    const run = spawnSync(process.execPath, ['src/cli/supported-node.mjs'], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });
});
