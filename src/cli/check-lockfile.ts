/**
 * `npm run lint`: every package-lock.json entry can be installed, and pruned,
 * from npm's cache with no question to the registry. An entry needs a version
 * and an integrity hash; a dependency asked for by a tag (`"latest"`) makes npm
 * fetch the package's registry document on every `npm ci` or `npm prune`, so
 * such a tag must be pinned in package.json's `overrides`. One plain line per
 * fault, exit 1.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const overrides = (JSON.parse(readFileSync('package.json', 'utf8')) as { overrides?: Record<string, unknown> }).overrides ?? {};

/** A spec npm can match against the locked version alone: a range, or a source other than the registry's tags. */
const settledOffline = (spec: string) => semver.validRange(spec) !== null || /^(npm|file|link|git\+?[a-z]*|https?|workspace):/.test(spec);

/** Whether package.json's overrides pin `dep` where `parent` asks for it (or everywhere). */
function overridden(parent: string, dep: string): boolean {
  const nested = overrides[parent];
  return dep in overrides || (typeof nested === 'object' && nested !== null && dep in nested);
}

const faults: string[] = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path === '' || entry.link) continue;
  if (!entry.version || !entry.integrity) faults.push(`package-lock.json: ${path} has no ${entry.version ? 'integrity' : 'version'}: npm cannot install it from its cache`);
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  for (const [dep, spec] of Object.entries({ ...entry.dependencies, ...entry.optionalDependencies })) {
    if (!settledOffline(spec) && !overridden(name, dep)) {
      faults.push(`package-lock.json: ${path} asks for ${dep}@${spec}, which only the registry can answer: pin it in package.json's overrides`);
    }
  }
}
for (const fault of faults) console.error(fault);
process.exitCode = faults.length > 0 ? 1 : 0;
