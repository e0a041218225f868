import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const pkg = read('package.json') as { engines: { node: string } };
interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}
const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };

/** Platform packages (sharp's for Windows, say) that npm leaves out here: their engines do not apply. */
const installsHere = ({ os, cpu }: LockEntry) => (!os || os.includes(process.platform)) && (!cpu || cpu.includes(process.arch));

describe('the engines field tells the truth', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('the Node this project runs on is one it declares', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it(`every installed package supports the oldest Node declared (${oldest}), so npm ci prints no engine warnings`, () => {
    const unsupported = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && installsHere(entry) && !Array.isArray(entry.engines) && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} wants Node ${(entry.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });
});
