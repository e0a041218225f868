// The Node.js lines the portal runs on are package.json's `engines` (one
// place). Imported first by every entry point (npm start, the compiled
// server, the staff commands, npm test), in syntax any Node parses: on an
// older line the portal says so in one line and exits, before a module that
// needs a newer Node (node:sqlite) is loaded and fails less clearly.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** `^22.13.0 || ^24.0.0 || ^26.0.0` → [[22, 13], [24, 0], [26, 0]]. */
export const SUPPORTED_LINES = pkg.engines.node.split('||').map((range) => {
  const [major, minor] = range.trim().replace(/^\^/, '').split('.').map(Number);
  return [major, minor];
});

/** "22 (22.13 or newer), 24 or 26" */
export function supportedText() {
  const lines = SUPPORTED_LINES.map(([major, minor]) => (minor > 0 ? `${major} (${major}.${minor} or newer)` : String(major)));
  return `${lines.slice(0, -1).join(', ')} or ${lines[lines.length - 1]}`;
}

/** 'ok', 'old' (refused) or 'newer' (a line released after this one: run, and say it is untested). */
export function nodeSupport(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (SUPPORTED_LINES.some(([m, min]) => major === m && minor >= min)) return 'ok';
  return major > Math.max(...SUPPORTED_LINES.map(([m]) => m)) ? 'newer' : 'old';
}

const support = nodeSupport(process.version);
if (support === 'old') {
  console.error(`Node.js ${process.version} is not supported: the portal runs on Node.js ${supportedText()}.`);
  process.exit(1);
}
if (support === 'newer') console.error(`Node.js ${process.version} is newer than the lines the portal is tested on (${supportedText()}).`);
